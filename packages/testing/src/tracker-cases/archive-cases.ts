import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { expectProblem } from '../http-client.js';
import { DATE_TIME, expectErrors } from '../library-cases/library-fixtures.js';
import {
  type CommentJson,
  create,
  type IssueJson,
  idsOf,
  type LabelJson,
  listOf,
  recordOf,
  totalOf,
} from './tracker-records.js';
import { type Org, seedWorld } from './tracker-world.js';

// CONTRACT part 4, "Archive instead of destroy": an admin's DELETE of an issue sets `archivedAt`;
// the issue is then 404 on show, update and destroy and absent from the index, unless the request
// says `archived=true`. Its comments are kept, and so are its labels, which count it no more.

/** Archives `issue` as the organization's admin, asserting the 204. */
async function archive(org: Org, issue: IssueJson): Promise<void> {
  const reply = await org.admin.send('DELETE', `/issues/${issue.id}`);
  expect(reply.status, reply.text).toBe(204);
  expect(reply.text).toBe('');
}

/** A new issue of the organization (by its member), with two comments, then archived. */
async function archivedIssue(org: Org): Promise<{ issue: IssueJson; comments: CommentJson[] }> {
  const issue = await create<IssueJson>(org.member, 'issue', 'member', {
    projectId: org.projects[0]?.id,
    title: 'To be archived',
  });
  const comments = [
    await create<CommentJson>(org.member, 'comment', 'member', { issueId: issue.id, body: 'Before archiving' }),
    await create<CommentJson>(org.otherMember, 'comment', 'member', { issueId: issue.id, body: 'Me too' }),
  ];
  await archive(org, issue);
  return { issue, comments };
}

/** A new issue of the organization's first project (by its member) with the label `label`. */
function labelled(org: Org, title: string, label: LabelJson): Promise<IssueJson> {
  return create<IssueJson>(org.member, 'issue', 'member', {
    projectId: org.projects[0]?.id,
    title,
    labelIds: [label.id],
  });
}

export const archiveCases = (secret: string) =>
  group('archive', (api) => seedWorld(api, secret), {
    async 'archive: an admin’s DELETE is 204 and sets archivedAt; the issue is then 404 on show, update and destroy'(
      _api,
      { one },
    ) {
      const issue = one.issues[0] as IssueJson;
      expect(issue.archivedAt).toBeNull();
      await archive(one, issue);
      for (const caller of [one.admin, one.member, one.viewer]) {
        expectProblem(await caller.get(`/issues/${issue.id}`), 404);
      }
      expectProblem(await one.admin.json('PATCH', `/issues/${issue.id}`, { title: 'Revived' }), 404);
      expectProblem(await one.member.json('PATCH', `/issues/${issue.id}`, { title: 'Revived' }), 404);
      expectProblem(await one.admin.send('DELETE', `/issues/${issue.id}`), 404);
      const shown = recordOf<IssueJson>(await one.viewer.get(`/issues/${issue.id}?archived=true`), 'issue', 'viewer');
      expect(shown.archivedAt).toMatch(DATE_TIME);
      expect(shown.archivedAt! >= (issue.createdAt as string)).toBe(true);
      const { archivedAt: _a, updatedAt: _u, ...kept } = issue;
      expect(shown).toMatchObject(kept);
    },

    async 'archive: an archived issue leaves the index and its count; archived=true lists it, with filter[archivedAt][null]=false only the archived'(
      _api,
      { one },
    ) {
      const issue = one.issues[1] as IssueJson;
      const before = await totalOf(one.member, 'issue');
      const all = await totalOf(one.member, 'issue', 'archived=true');
      await archive(one, issue);
      const listed = await listOf<IssueJson>(one.member, 'issue');
      expect(listed.map((each) => each.id)).not.toContain(issue.id);
      expect(listed.every((each) => each.archivedAt === null)).toBe(true);
      expect(await totalOf(one.member, 'issue')).toBe(before - 1);
      const everything = await listOf<IssueJson>(one.member, 'issue', 'archived=true');
      expect(everything.map((each) => each.id)).toContain(issue.id);
      expect(await totalOf(one.member, 'issue', 'archived=true')).toBe(all);
      const archived = await listOf<IssueJson>(one.viewer, 'issue', 'archived=true&filter[archivedAt][null]=false');
      expect(archived.length).toBeGreaterThan(0);
      expect(archived.map((each) => each.id)).toContain(issue.id);
      expect(archived.every((each) => each.archivedAt !== null)).toBe(true);
      expect(idsOf(archived)).toEqual(idsOf(everything.filter((each) => each.archivedAt !== null)));
      expect(await listOf(one.viewer, 'issue', 'filter[archivedAt][null]=false')).toEqual([]);
      const live = await listOf<IssueJson>(one.viewer, 'issue', 'archived=true&filter[archivedAt][null]=true');
      expect(idsOf(live)).toEqual(idsOf(listed));
    },

    async 'archive: the comments of an archived issue are kept'(_api, { one }) {
      const { issue, comments } = await archivedIssue(one);
      const listed = await listOf<CommentJson>(one.member, 'comment', `filter[issueId]=${issue.id}`);
      expect(idsOf(listed)).toEqual(idsOf(comments));
      for (const comment of comments) {
        expect(recordOf(await one.viewer.get(`/comments/${comment.id}`), 'comment', 'viewer')).toEqual(comment);
      }
    },

    async 'archive: only admins archive; members and viewers are 403, another organization’s admin 404'(
      _api,
      { one, two },
    ) {
      const issue = one.issues[2] as IssueJson;
      expectProblem(await one.member.send('DELETE', `/issues/${issue.id}`), 403);
      expectProblem(await one.viewer.send('DELETE', `/issues/${issue.id}`), 403);
      expectProblem(await two.admin.send('DELETE', `/issues/${issue.id}`), 404);
      expect(recordOf<IssueJson>(await one.admin.get(`/issues/${issue.id}`), 'issue', 'admin')).toEqual(issue);
      // Organization 1's archived issues do not exist for organization 2, archived=true or not.
      const { issue: archived } = await archivedIssue(one);
      expectProblem(await two.admin.get(`/issues/${archived.id}?archived=true`), 404);
      const theirs = await listOf<IssueJson>(two.admin, 'issue', 'archived=true');
      expect(idsOf(theirs)).toEqual(idsOf(two.issues));
    },

    async 'archive: archivedAt is set by the server; sending it is 422 read-only'(_api, { one }) {
      const issue = one.issues[2] as IssueJson;
      const body = { projectId: one.projects[0]?.id, title: 'Pre-archived' };
      const before = await totalOf(one.admin, 'issue', 'archived=true');
      for (const archivedAt of ['2024-01-01T00:00:00.000Z', null]) {
        expectErrors(await one.admin.json('POST', '/issues', { ...body, archivedAt }), {
          archivedAt: ['is read-only'],
        });
        expectErrors(await one.admin.json('PATCH', `/issues/${issue.id}`, { archivedAt }), {
          archivedAt: ['is read-only'],
        });
      }
      expect(await totalOf(one.admin, 'issue', 'archived=true')).toBe(before);
      expect(recordOf<IssueJson>(await one.admin.get(`/issues/${issue.id}`), 'issue', 'admin')).toEqual(issue);
    },

    async 'archive: a member’s priority change on an archived issue is 404, not 403'(_api, { one }) {
      const { issue: archived } = await archivedIssue(one);
      expectProblem(await one.member.json('PATCH', `/issues/${archived.id}`, { priority: 1 }), 404);
      expectProblem(await one.viewer.json('PATCH', `/issues/${archived.id}`, { title: 'x' }), 403);
    },
    async 'archive: the count of a label filter alone leaves out archived issues and other organizations’, for every role, and a restore counts again'(
      _api,
      { one, two },
    ) {
      // A filter through the labels and nothing else: the SQL stores count it from the join
      // table's copies of each issue's organization and archive (docs/many-to-many.md).
      const color = { color: '#123456' };
      const tallied = await create<LabelJson>(one.member, 'label', 'member', { name: 'tallied', ...color });
      const theirs = await create<LabelJson>(two.member, 'label', 'member', { name: 'tallied', ...color });
      const kept = await labelled(one, 'Tallied kept', tallied);
      const gone = await labelled(one, 'Tallied gone', tallied);
      await labelled(two, 'Tallied theirs', theirs);
      await labelled(two, 'Tallied theirs too', theirs);
      await archive(one, gone);
      for (const role of ['viewer', 'member', 'admin'] as const) {
        expect(await totalOf(one[role], 'issue', 'filter[labels.name]=tallied'), role).toBe(1);
        const listed = await listOf<IssueJson>(one[role], 'issue', 'filter[labels.name]=tallied');
        expect(idsOf(listed), role).toEqual([kept.id]);
      }
      expect(await totalOf(two.viewer, 'issue', 'filter[labels.name]=tallied')).toBe(2);
      const restored = await one.admin.json('PATCH', `/issues/${gone.id}?archived=true`, { archivedAt: null });
      expect(restored.status, restored.text).toBe(200);
      expect(await totalOf(one.viewer, 'issue', 'filter[labels.name]=tallied')).toBe(2);
      expect(await totalOf(two.viewer, 'issue', 'filter[labels.name]=tallied')).toBe(2);
    },
  });
