import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import type { HttpClient } from '../http-client.js';
import { create, type IssueJson, idsOf, type Json, type LabelJson, listOf, totalOf } from './tracker-records.js';
import { type Org, seedWorld } from './tracker-world.js';

// CONTRACT part 4's many-to-many, search, statistics and archive used together, as a dashboard
// does: statistics take the index's `q`, label filters and `archived`, and each of their counts
// is the X-Total-Count of the index asked the same; nothing of another organization counts.

/** The `stats` list of a 200 answer of the organization's viewer. */
async function statsOf(caller: HttpClient, query: string): Promise<Json[]> {
  const reply = await caller.get(`/issues/stats?${query}`);
  expect(reply.status, `${query}: ${reply.text}`).toBe(200);
  return reply.body.stats as Json[];
}

/** Issues of the organization (by its member) with these titles, labels and statuses. */
async function seed(org: Org, bug: LabelJson, ui: LabelJson): Promise<IssueJson[]> {
  const specs: [string, number[], string][] = [
    ['Quokka login on Safari', [bug.id], 'open'],
    ['Quokka page layout', [ui.id], 'open'],
    ['Quokka logout', [bug.id, ui.id], 'done'],
    ['Quokka reporter', [], 'in_progress'],
  ];
  const made: IssueJson[] = [];
  for (const [title, labelIds, status] of specs) {
    made.push(
      await create<IssueJson>(org.member, 'issue', 'member', {
        projectId: org.projects[0]?.id,
        title,
        labelIds,
        status,
      }),
    );
  }
  return made;
}

/** Every statistics entry's count is the index's X-Total-Count for the same query and group value. */
async function expectCountsOfIndex(caller: HttpClient, query: string): Promise<void> {
  const entries = await statsOf(caller, `group=status&${query}`);
  let all = 0;
  for (const entry of entries) {
    all += entry.count as number;
    expect(await totalOf(caller, 'issue', `${query}&filter[status]=${entry.status}`), query).toBe(entry.count);
  }
  expect(await totalOf(caller, 'issue', query), query).toBe(all);
}

export const togetherCases = (secret: string) =>
  group('search, labels and statistics together', (api) => seedWorld(api, secret), {
    async 'together: statistics take q= and label filters, and count what the index lists'(_api, { one, two }) {
      const label = (org: Org, name: string) =>
        create<LabelJson>(org.member, 'label', 'member', { name, color: '#aa0000' });
      const [bug, ui] = [await label(one, 'crash-bug'), await label(one, 'crash-ui')];
      const made = await seed(one, bug, ui);
      // The other organization has the same titles and label names: none of it may count.
      await seed(two, await label(two, 'crash-bug'), await label(two, 'crash-ui'));

      const crash = 'q=QUOK';
      expect(await statsOf(one.viewer, `group=status&${crash}`)).toEqual([
        { status: 'done', count: 1 },
        { status: 'in_progress', count: 1 },
        { status: 'open', count: 2 },
      ]);
      const labelled = `filter[labels.name]=crash-bug&${crash}`;
      expect(await statsOf(one.viewer, `group=status&${labelled}`)).toEqual([
        { status: 'done', count: 1 },
        { status: 'open', count: 1 },
      ]);
      expect(idsOf(await listOf<IssueJson>(one.viewer, 'issue', `${labelled}&include=labels`))).toEqual(
        [made[0]?.id, made[2]?.id].sort((a, b) => Number(a) - Number(b)),
      );
      for (const query of [
        crash,
        labelled,
        'q=log',
        'filter[labels.name][]=crash-bug&filter[labels.name][]=crash-ui',
      ]) {
        await expectCountsOfIndex(one.viewer, query);
        await expectCountsOfIndex(two.viewer, query);
      }
    },

    async 'together: an archived issue leaves statistics, search and label filters until archived=true asks'(
      _api,
      { one },
    ) {
      const bug = await create<LabelJson>(one.member, 'label', 'member', { name: 'archived-bug', color: '#00aa00' });
      const [first] = await seed(one, bug, bug);
      const query = 'q=safari&filter[labels.name]=archived-bug';
      expect(await statsOf(one.viewer, query)).toEqual([{ count: 1 }]);
      const reply = await one.admin.send('DELETE', `/issues/${first?.id}`);
      expect(reply.status, reply.text).toBe(204);
      expect(await statsOf(one.viewer, query)).toEqual([{ count: 0 }]);
      expect(await totalOf(one.viewer, 'issue', query)).toBe(0);
      expect(await statsOf(one.viewer, `${query}&archived=true`)).toEqual([{ count: 1 }]);
      expect(await totalOf(one.viewer, 'issue', `${query}&archived=true`)).toBe(1);
    },
  });
