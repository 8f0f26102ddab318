import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { expectProblem, parseLinks } from '../http-client.js';
import { create, type IssueJson, idsOf, listOf, totalOf } from './tracker-records.js';
import { type Org, seedWorld } from './tracker-world.js';

// CONTRACT part 4, "Search: q=": the issues where every word of `q` begins a word of the title
// or of the body (words may match in different fields); words are runs of Unicode letters and
// digits, `_` and punctuation separate them; case is folded (Unicode case folding), accents
// count. `q` combines with filters, sort and pages, and never crosses tenancy or the archive.

/** The issues `q` lists for the organization's member (ids, sorted), with its other parameters. */
async function searched(org: Org, q: string, more = ''): Promise<(number | string)[]> {
  const query = `q=${encodeURIComponent(q)}${more ? `&${more}` : ''}`;
  return idsOf(await listOf<IssueJson>(org.member, 'issue', query));
}

/** A new issue of the organization, by its member. */
function issue(org: Org, values: Record<string, unknown>): Promise<IssueJson> {
  return create<IssueJson>(org.member, 'issue', 'member', { projectId: org.projects[0]?.id, ...values });
}

export const searchCases = (secret: string) =>
  group('search', (api) => seedWorld(api, secret), {
    async 'search: every word of q begins a word of the title or of the body, in either'(_api, { one }) {
      const [crash] = one.issues as [IssueJson];
      expect(await searched(one, 'crash')).toEqual([crash.id]);
      expect(await searched(one, 'CRA')).toEqual([crash.id]);
      expect(await searched(one, 'crash stack')).toEqual([crash.id]); // the title's word and the body's
      expect(await searched(one, 'sta tra')).toEqual([crash.id]);
      expect(await searched(one, 'rash')).toEqual([]); // inside a word
      expect(await searched(one, 'crash typo')).toEqual([]); // every word must match
    },

    async 'search: Unicode words and case folding; accents count; `_` and punctuation separate words'(_api, { one }) {
      const greek = await issue(one, { title: 'ΣΊΣΥΦΟΣ Straße', body: 'Café au lait; snake_case e-mail 東京' });
      const plain = await issue(one, { title: 'Cafe without accent', body: null });
      expect(await searched(one, 'σίσυφος')).toEqual([greek.id]); // final sigma folds to σ
      expect(await searched(one, 'STRAẞE')).toEqual([greek.id]);
      expect(await searched(one, 'café')).toEqual([greek.id]);
      expect(await searched(one, 'CAFE')).toEqual([plain.id]);
      expect(await searched(one, 'case mail')).toEqual([greek.id]);
      expect(await searched(one, 'snake_case')).toEqual([greek.id]);
      expect(await searched(one, '東京')).toEqual([greek.id]);
      expect(await searched(one, 'lait!')).toEqual([greek.id]);
    },

    async 'search: another organization’s matching issues are never listed or counted'(_api, { one, two }) {
      // Both organizations have "Crash on start <One|Two>".
      expect(await searched(one, 'crash')).toEqual([one.issues[0]?.id]);
      expect(await searched(two, 'crash')).toEqual([two.issues[0]?.id]);
      expect(await totalOf(one.member, 'issue', 'q=crash')).toBe(1);
      expect(await searched(one, 'two')).toEqual([]);
      expect(await totalOf(one.admin, 'issue', 'q=two&archived=true')).toBe(0);
      expect(await searched(two, 'one stack')).toEqual([]);
    },

    async 'search: archived issues are left out unless archived=true'(_api, { one }) {
      const zebra = await issue(one, { title: 'Zebra crossing' });
      expect(await searched(one, 'zebra')).toEqual([zebra.id]);
      expect((await one.admin.send('DELETE', `/issues/${zebra.id}`)).status).toBe(204);
      expect(await searched(one, 'zebra')).toEqual([]);
      expect(await totalOf(one.member, 'issue', 'q=zebra')).toBe(0);
      expect(await searched(one, 'zebra', 'archived=true')).toEqual([zebra.id]);
    },

    async 'search: combines with filters, sort, pages and X-Total-Count; without sort the default order'(
      _api,
      { one },
    ) {
      const made: IssueJson[] = [];
      for (const [index, priority] of [1, 3, 1, 2, 1].entries()) {
        made.push(await issue(one, { title: `Paged report ${index}`, body: 'needle', priority }));
      }
      await issue(one, { title: 'Paged but other', priority: 1 });
      const newestFirst = [...made].reverse().map((each) => each.id);
      const first = await one.member.get('/issues?q=needle%20paged&per_page=2');
      expect(first.status, first.text).toBe(200);
      expect(first.headers.get('x-total-count')).toBe('5');
      expect((first.body.issues as IssueJson[]).map((each) => each.id)).toEqual(newestFirst.slice(0, 2));
      const next = parseLinks(first.headers.get('link')).next;
      expect(next).toContain('q=needle');
      const second = await one.member.get('/issues?q=needle%20paged&per_page=2&page=2');
      expect((second.body.issues as IssueJson[]).map((each) => each.id)).toEqual(newestFirst.slice(2, 4));
      const ones = await listOf<IssueJson>(one.member, 'issue', 'q=needle&filter[priority]=1&sort=-priority,title');
      expect(ones.map((each) => each.title)).toEqual(['Paged report 0', 'Paged report 2', 'Paged report 4']);
      const sorted = await listOf<IssueJson>(one.member, 'issue', 'q=needle&sort=priority');
      expect(sorted.map((each) => each.priority)).toEqual([1, 1, 1, 2, 3]);
      expect(await totalOf(one.member, 'issue', 'q=needle&filter[priority][gte]=2')).toBe(2);
    },

    async 'search: a q without a word is 400 naming q; q where no search is declared is 400'(_api, { one }) {
      for (const q of ['', '%20', '...', '_-_', '%E2%80%94']) {
        const problem = expectProblem(await one.member.get(`/issues?q=${q}`), 400);
        expect(problem.detail).toMatch(/\bq\b/);
      }
      const problem = expectProblem(await one.member.get('/projects?q=roadmap'), 400);
      expect(problem.detail).toMatch(/\bq\b/);
    },
  });
