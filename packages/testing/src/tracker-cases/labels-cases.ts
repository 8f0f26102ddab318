import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { expectProblem, type Reply } from '../http-client.js';
import { expectErrors } from '../library-cases/library-fixtures.js';
import {
  create,
  expectShape,
  type IssueJson,
  idsOf,
  type LabelJson,
  listOf,
  missingId,
  normalized,
  recordOf,
  totalOf,
} from './tracker-records.js';
import { type Org, seedWorld } from './tracker-world.js';

// CONTRACT part 4, "Many-to-many: `labelIds`": every issue holds its labels' ids, ascending;
// create and update send the whole set ([] clears it, a repeated id counts once, at most 50); an
// id that is not a label of the caller's organization is 422 `does not exist`, byte for byte the
// answer for an id that exists nowhere, and nothing changes; `include=labels` adds the records;
// `filter[labels.name]` keeps the issues with such a label, never through another organization's;
// destroying a label removes it from every issue.

const DOES_NOT_EXIST = { labelIds: ['does not exist'] };

/** A new label of the organization, by its member. */
function newLabel(org: Org, name: string): Promise<LabelJson> {
  return create<LabelJson>(org.member, 'label', 'member', { name, color: '#123456' });
}

/** A new issue of the organization, by its member, with `labelIds`. */
function newIssue(org: Org, title: string, labelIds: readonly number[]): Promise<IssueJson> {
  return create<IssueJson>(org.member, 'issue', 'member', { projectId: org.projects[0]?.id, title, labelIds });
}

/** The issue as the organization's admin shows it. */
async function shown(org: Org, id: number, query = ''): Promise<IssueJson> {
  return recordOf<IssueJson>(await org.admin.get(`/issues/${id}${query}`), 'issue', 'admin');
}

function expectSameAnswer(a: Reply, b: Reply, values: readonly number[], label: string): void {
  expect(a.status, `${label}: ${a.text}`).toBe(b.status);
  expect(a.headers.get('content-type'), label).toBe(b.headers.get('content-type'));
  expect(normalized(a, values), label).toBe(normalized(b, values));
}

export const labelsCases = (secret: string) =>
  group('labels', (api) => seedWorld(api, secret), {
    async 'labels: every issue has labelIds, ascending and distinct, [] when none, on every path'(_api, { one }) {
      for (const issue of one.issues) expect(issue.labelIds).toEqual([]);
      const [bug, other] = one.labels as [LabelJson, LabelJson];
      const issue = await newIssue(one, 'Labelled', [other.id, bug.id, other.id]);
      const both = [bug.id, other.id].sort((a, b) => a - b);
      expect(issue.labelIds).toEqual(both);
      expect((await shown(one, issue.id)).labelIds).toEqual(both);
      for (const role of ['viewer', 'member', 'admin'] as const) {
        const listed = await listOf<IssueJson>(one[role], 'issue');
        for (const record of listed) expectShape('issue', role, record);
        expect(listed.find((record) => record.id === issue.id)?.labelIds).toEqual(both);
      }
      // Included from another resource, and asked for (or left out) with fields=.
      const project = await one.admin.get(`/projects/${one.projects[0]?.id}?include=issues`);
      const included = (project.body.project as { issues: IssueJson[] }).issues;
      for (const record of included) expectShape('issue', 'admin', record);
      expect(included.find((record) => record.id === issue.id)?.labelIds).toEqual(both);
      const sparse = await one.admin.get(`/issues?fields=labelIds&filter[id]=${issue.id}`);
      expect(sparse.status, sparse.text).toBe(200);
      expect(sparse.body.issues).toEqual([{ id: issue.id, labelIds: both }]);
      const without = await one.admin.get(`/issues/${issue.id}?fields=title`);
      expect(without.body.issue).toEqual({ id: issue.id, title: 'Labelled' });
    },

    async 'labels: update sends the whole set; [] clears it; leaving it out keeps it; updatedAt and the ETag move with it'(
      _api,
      { one },
    ) {
      const [bug, other] = one.labels as [LabelJson, LabelJson];
      const issue = await newIssue(one, 'Relabelled', [bug.id]);
      const before = await one.admin.get(`/issues/${issue.id}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const changed = await one.member.json('PATCH', `/issues/${issue.id}`, { labelIds: [other.id] });
      const after = recordOf<IssueJson>(changed, 'issue', 'member');
      expect(after.labelIds).toEqual([other.id]);
      expect(after.updatedAt).not.toBe(issue.updatedAt);
      expect(changed.headers.get('etag')).not.toBe(before.headers.get('etag'));
      const show = await one.admin.get(`/issues/${issue.id}`);
      expect(show.headers.get('etag')).toBe(changed.headers.get('etag'));
      // The same set again changes nothing.
      const same = recordOf<IssueJson>(
        await one.member.json('PATCH', `/issues/${issue.id}`, { labelIds: [other.id, other.id] }),
        'issue',
        'member',
      );
      expect(same.updatedAt).toBe(after.updatedAt);
      const titled = recordOf<IssueJson>(
        await one.member.json('PATCH', `/issues/${issue.id}`, { title: 'Retitled' }),
        'issue',
        'member',
      );
      expect(titled.labelIds).toEqual([other.id]);
      const cleared = recordOf<IssueJson>(
        await one.member.json('PATCH', `/issues/${issue.id}`, { issue: { labelIds: [] } }),
        'issue',
        'member',
      );
      expect(cleared.labelIds).toEqual([]);
      expect((await shown(one, issue.id)).labelIds).toEqual([]);
    },

    async 'labels: more than 50 ids, or anything but an array of ids, is 422 naming labelIds, and nothing changes'(
      _api,
      { one },
    ) {
      const [bug] = one.labels as [LabelJson];
      const issue = await newIssue(one, 'Bounded', [bug.id]);
      const many = Array.from({ length: 51 }, (_, i) => i + 1);
      for (const labelIds of [many, 'bug', [bug.id, 'x'], [0], [1.5], null, { id: bug.id }]) {
        const reply = await one.member.json('PATCH', `/issues/${issue.id}`, { labelIds });
        expect(expectProblem(reply, 422).errors, JSON.stringify(labelIds)).toHaveProperty('labelIds');
      }
      const refused = await one.member.json('POST', '/issues', {
        projectId: one.projects[0]?.id,
        title: 'Too many',
        labelIds: many,
      });
      expectErrors(refused, { labelIds: ['must hold at most 50 ids'] });
      expect((await shown(one, issue.id)).labelIds).toEqual([bug.id]);
      // A repeated id counts once: sixty times the same label is one label.
      const repeated = await newIssue(one, 'Repeated', Array(60).fill(bug.id));
      expect(repeated.labelIds).toEqual([bug.id]);
    },

    async 'labels: another organization’s label is 422 does not exist, byte for byte as one that exists nowhere; nothing changes'(
      _api,
      { one, two },
    ) {
      const [bug] = one.labels as [LabelJson];
      const theirs = two.labels[1] as LabelJson;
      const nowhere = missingId('label') as number;
      const issue = await newIssue(one, 'Guarded', [bug.id]);
      const total = await totalOf(one.admin, 'issue');
      const base = { projectId: one.projects[0]?.id, title: 'Never made' };
      const created = await one.member.json('POST', '/issues', { ...base, labelIds: [bug.id, theirs.id] });
      const createdNowhere = await one.member.json('POST', '/issues', { ...base, labelIds: [bug.id, nowhere] });
      expectErrors(created, DOES_NOT_EXIST);
      expectSameAnswer(created, createdNowhere, [theirs.id, nowhere], 'create');
      const updated = await one.admin.json('PATCH', `/issues/${issue.id}`, { title: 'Changed', labelIds: [theirs.id] });
      const updatedNowhere = await one.admin.json('PATCH', `/issues/${issue.id}`, {
        title: 'Changed',
        labelIds: [nowhere],
      });
      expectErrors(updated, DOES_NOT_EXIST);
      expectSameAnswer(updated, updatedNowhere, [theirs.id, nowhere], 'update');
      expect(await totalOf(one.admin, 'issue')).toBe(total);
      const after = await shown(one, issue.id);
      expect(after.labelIds).toEqual([bug.id]);
      expect(after.title).toBe('Guarded');
    },

    async 'labels: include=labels adds the label records ordered by id, on show and index, never another organization’s'(
      _api,
      { one, two },
    ) {
      const [bug, other] = one.labels as [LabelJson, LabelJson];
      const issue = await newIssue(one, 'Included', [other.id, bug.id]);
      const bare = await newIssue(one, 'Bare', []);
      const expected = [...one.labels].sort((a, b) => a.id - b.id);
      const show = await one.admin.get(`/issues/${issue.id}?include=labels`);
      expect(show.status, show.text).toBe(200);
      expect((show.body.issue as { labels: LabelJson[] }).labels).toEqual(expected);
      for (const role of ['viewer', 'member', 'admin'] as const) {
        const reply = await one[role].get('/issues?per_page=100&include=labels,assignee');
        expect(reply.status, reply.text).toBe(200);
        const issues = reply.body.issues as (IssueJson & { labels: LabelJson[] })[];
        for (const record of issues) {
          expect(idsOf(record.labels)).toEqual(record.labelIds);
          for (const label of record.labels) expectShape('label', role, label);
        }
        expect(issues.find((record) => record.id === issue.id)?.labels).toEqual(expected);
        expect(issues.find((record) => record.id === bare.id)?.labels).toEqual([]);
        expect(reply.text).not.toContain(two.labels[1]?.name as string);
      }
      // Organization 2's issues with labels never show organization 1's.
      const theirs = await newIssue(two, 'Theirs', idsOf(two.labels) as number[]);
      const listed = await two.viewer.get('/issues?per_page=100&include=labels');
      const found = (listed.body.issues as (IssueJson & { labels: LabelJson[] })[]).find((r) => r.id === theirs.id);
      expect(found?.labels.map((label) => label.orgId)).toEqual([2, 2]);
    },

    async 'labels: filter[labels.name] keeps the issues with such a label; any-of and operators; never through another organization’s label'(
      _api,
      { one, two },
    ) {
      const [bug, own] = one.labels as [LabelJson, LabelJson];
      const ui = await newLabel(one, 'ui');
      const crash = await newIssue(one, 'Filter bug', [bug.id]);
      const both = await newIssue(one, 'Filter both', [bug.id, ui.id]);
      const styled = await newIssue(one, 'Filter ui', [ui.id]);
      const mine = await newIssue(one, 'Filter own', [own.id]);
      // Organization 2 has a `bug` label too, on an issue of its own.
      await newIssue(two, 'Their bug', [(two.labels[0] as LabelJson).id]);
      // The issues of this case only (the group's other cases label issues too).
      const only = 'filter[title][prefix]=Filter%20';
      const idsFor = async (query: string) => idsOf(await listOf<IssueJson>(one.viewer, 'issue', `${only}&${query}`));
      expect(await idsFor('filter[labels.name]=bug')).toEqual([crash.id, both.id]);
      expect(await totalOf(one.viewer, 'issue', `${only}&filter[labels.name]=bug`)).toBe(2);
      expect(await idsFor('filter[labels.name][]=bug&filter[labels.name][]=ui')).toEqual([
        crash.id,
        both.id,
        styled.id,
      ]);
      expect(await idsFor('filter[labels.name][prefix]=u')).toEqual([both.id, styled.id]);
      expect(await idsFor('filter[labels.name][ne]=bug')).toEqual([both.id, styled.id, mine.id]);
      expect(await idsFor(`filter[labels.name][contains]=${encodeURIComponent('-One')}`)).toEqual([mine.id]);
      expect(await idsFor(`filter[labels.id]=${bug.id}&filter[status]=open`)).toEqual([crash.id, both.id]);
      // Through organization 2's label: nothing, as if it did not exist.
      expect(await idsFor(`filter[labels.name]=${encodeURIComponent('label-Two')}`)).toEqual([]);
      expect(await idsFor(`filter[labels.id]=${two.labels[1]?.id}`)).toEqual([]);
      const unknown = await one.viewer.get('/issues?filter[labels.nope]=x');
      expect(expectProblem(unknown, 400).detail).toContain('filter[labels.nope]');
    },

    async 'labels: destroying a label removes it from every issue; archiving an issue keeps its labels'(_api, { one }) {
      const [bug] = one.labels as [LabelJson];
      const doomed = await newLabel(one, 'doomed');
      const first = await newIssue(one, 'Doomed one', [bug.id, doomed.id]);
      const second = await newIssue(one, 'Doomed two', [doomed.id]);
      expectProblem(await one.member.send('DELETE', `/labels/${doomed.id}`), 403);
      const reply = await one.admin.send('DELETE', `/labels/${doomed.id}`);
      expect(reply.status, reply.text).toBe(204);
      expect((await shown(one, first.id)).labelIds).toEqual([bug.id]);
      expect((await shown(one, second.id)).labelIds).toEqual([]);
      const archived = await one.admin.send('DELETE', `/issues/${first.id}`);
      expect(archived.status, archived.text).toBe(204);
      expect((await shown(one, first.id, '?archived=true')).labelIds).toEqual([bug.id]);
    },

    async 'labels: a viewer reads labelIds but may not send them (403); members and admins may'(_api, { one }) {
      const [bug, other] = one.labels as [LabelJson, LabelJson];
      const issue = await newIssue(one, 'Roles', [bug.id]);
      expectProblem(await one.viewer.json('PATCH', `/issues/${issue.id}`, { labelIds: [] }), 403);
      expect((await shown(one, issue.id)).labelIds).toEqual([bug.id]);
      const read = recordOf<IssueJson>(await one.viewer.get(`/issues/${issue.id}`), 'issue', 'viewer');
      expect(read.labelIds).toEqual([bug.id]);
      const admin = await one.admin.json('PATCH', `/issues/${issue.id}`, { labelIds: [other.id, bug.id] });
      expect(recordOf<IssueJson>(admin, 'issue', 'admin').labelIds).toEqual(idsOf(one.labels));
    },
  });
