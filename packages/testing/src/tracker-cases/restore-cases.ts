import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { expectProblem } from '../http-client.js';
import { DATE_TIME, expectErrors } from '../library-cases/library-fixtures.js';
import {
  type CommentJson,
  create,
  type IssueJson,
  idsOf,
  listOf,
  type ProjectJson,
  recordOf,
} from './tracker-records.js';
import { type Org, seedWorld } from './tracker-world.js';

// Restoring an archived issue, and what archived issues mean to the records around them
// (docs/access.md, "Archive instead of destroy"): `PATCH /issues/:id?archived=true` with
// `{"archivedAt": null}` restores, for whoever may destroy it; a foreign key naming an archived
// issue does not exist; `include=` and relation filters leave archived issues out; a project
// that archived issues still refer to is not destroyed (409) until they are reassigned.

/** A new issue of the organization's first project (by its member), archived by its admin. */
async function archived(org: Org, title = 'Archived one'): Promise<IssueJson> {
  const issue = await create<IssueJson>(org.member, 'issue', 'member', { projectId: org.projects[0]?.id, title });
  const reply = await org.admin.send('DELETE', `/issues/${issue.id}`);
  expect(reply.status, reply.text).toBe(204);
  return issue;
}

const RESTORE = { archivedAt: null };

export const restoreCases = (secret: string) =>
  group('archive: restore and references', (api) => seedWorld(api, secret), {
    async 'restore: an admin’s PATCH ?archived=true with {"archivedAt": null} is 200 with the issue back, listed again'(
      _api,
      { one },
    ) {
      const issue = await archived(one);
      const restored = recordOf<IssueJson>(
        await one.admin.json('PATCH', `/issues/${issue.id}?archived=true`, RESTORE),
        'issue',
        'admin',
      );
      expect(restored.archivedAt).toBeNull();
      const { updatedAt: _u, ...kept } = issue;
      expect(restored).toMatchObject(kept);
      expect(recordOf<IssueJson>(await one.member.get(`/issues/${issue.id}`), 'issue', 'member')).toEqual(restored);
      expect(idsOf(await listOf<IssueJson>(one.viewer, 'issue'))).toContain(issue.id);
      // Restoring a live issue again changes nothing; without archived=true the field stays read-only.
      const again = await one.admin.json('PATCH', `/issues/${issue.id}?archived=true`, { issue: RESTORE });
      expect(recordOf<IssueJson>(again, 'issue', 'admin')).toEqual(restored);
      expectErrors(await one.admin.json('PATCH', `/issues/${issue.id}`, RESTORE), { archivedAt: ['is read-only'] });
      // Only null restores: a date is the server's to set.
      const other = await archived(one, 'Still archived');
      expectErrors(
        await one.admin.json('PATCH', `/issues/${other.id}?archived=true`, { archivedAt: '2024-01-01T00:00:00.000Z' }),
        { archivedAt: ['is read-only'] },
      );
      const still = recordOf<IssueJson>(await one.admin.get(`/issues/${other.id}?archived=true`), 'issue', 'admin');
      expect(still.archivedAt).toMatch(DATE_TIME);
    },

    async 'restore: members are 403 naming archivedAt, viewers 403, another organization’s admin 404; nothing changes'(
      _api,
      { one, two },
    ) {
      const issue = await archived(one);
      const path = `/issues/${issue.id}?archived=true`;
      const refused = await one.member.json('PATCH', path, { ...RESTORE, title: 'Back' });
      expectProblem(refused, 403);
      expect((refused.body as { errors?: unknown }).errors).toEqual({ archivedAt: ['may not be changed by you'] });
      expectProblem(await one.viewer.json('PATCH', path, RESTORE), 403);
      expectProblem(await two.admin.json('PATCH', path, RESTORE), 404);
      expectProblem(await two.admin.json('PATCH', `/issues/${issue.id}`, RESTORE), 404);
      // An archived issue is still 404 to a PATCH that does not say archived=true.
      expectProblem(await one.admin.json('PATCH', `/issues/${issue.id}`, { title: 'Back' }), 404);
      const shown = recordOf<IssueJson>(await one.admin.get(path), 'issue', 'admin');
      expect(shown.archivedAt).toMatch(DATE_TIME);
      expect(shown.title).toBe(issue.title);
    },

    async 'restore: If-Match guards it (412 on a stale ETag) and the restored issue has a new ETag'(_api, { one }) {
      const issue = await archived(one);
      const path = `/issues/${issue.id}?archived=true`;
      const before = await one.admin.get(path);
      const etag = before.headers.get('etag') as string;
      expect(etag).toBeTruthy();
      const stale = await one.admin.send('PATCH', path, {
        body: JSON.stringify(RESTORE),
        headers: { 'if-match': '"stale"' },
      });
      expectProblem(stale, 412);
      expectProblem(await one.admin.get(`/issues/${issue.id}`), 404);
      const done = await one.admin.send('PATCH', path, {
        body: JSON.stringify(RESTORE),
        headers: { 'if-match': etag },
      });
      expect(done.status, done.text).toBe(200);
      expect(done.headers.get('etag')).not.toBe(etag);
      expect(recordOf<IssueJson>(done, 'issue', 'admin').archivedAt).toBeNull();
    },

    async 'archived: a member edits an archived issue with archived=true; it stays archived'(_api, { one }) {
      const issue = await archived(one);
      const path = `/issues/${issue.id}?archived=true`;
      const edited = recordOf<IssueJson>(await one.member.json('PATCH', path, { title: 'Renamed' }), 'issue', 'member');
      expect(edited).toMatchObject({ title: 'Renamed', archivedAt: expect.stringMatching(DATE_TIME) });
      expectProblem(await one.member.get(`/issues/${issue.id}`), 404);
    },

    async 'references: a comment naming an archived issue is 422 does not exist, as for no issue at all'(
      _api,
      { one },
    ) {
      const issue = await archived(one);
      for (const issueId of [issue.id, 999_999]) {
        expectErrors(await one.member.json('POST', '/comments', { issueId, body: 'Hello?' }), {
          issueId: ['does not exist'],
        });
      }
      await one.admin.json('PATCH', `/issues/${issue.id}?archived=true`, RESTORE);
      await create<CommentJson>(one.member, 'comment', 'member', { issueId: issue.id, body: 'Back again' });
    },

    async 'references: include= and relation filters leave archived issues out'(_api, { one }) {
      const project = await create<ProjectJson>(one.admin, 'project', 'admin', { name: 'Archive includes' });
      const live = await create<IssueJson>(one.member, 'issue', 'member', { projectId: project.id, title: 'Live' });
      const gone = await create<IssueJson>(one.member, 'issue', 'member', { projectId: project.id, title: 'Gone' });
      const comment = await create<CommentJson>(one.member, 'comment', 'member', { issueId: gone.id, body: 'On gone' });
      expect((await one.admin.send('DELETE', `/issues/${gone.id}`)).status).toBe(204);
      const shown = await one.viewer.get(`/projects/${project.id}?include=issues`);
      expect(shown.status, shown.text).toBe(200);
      expect(idsOf((shown.body as { project: { issues: IssueJson[] } }).project.issues)).toEqual([live.id]);
      const withIssue = await one.viewer.get(`/comments/${comment.id}?include=issue`);
      expect((withIssue.body as { comment: { issue: unknown } }).comment.issue).toBeNull();
      const query = `filter[issue.title]=Gone&filter[issueId]=${gone.id}`;
      expect(await listOf<CommentJson>(one.viewer, 'comment', query)).toEqual([]);
      expect(idsOf(await listOf<CommentJson>(one.viewer, 'comment', `filter[issueId]=${gone.id}`))).toEqual([
        comment.id,
      ]);
    },

    async 'references: a project its archived issues refer to is 409; reassigned (PATCH ?archived=true), it goes'(
      _api,
      { one },
    ) {
      const project = await create<ProjectJson>(one.admin, 'project', 'admin', { name: 'Only archived' });
      const issue = await create<IssueJson>(one.member, 'issue', 'member', { projectId: project.id, title: 'Old' });
      expect((await one.admin.send('DELETE', `/issues/${issue.id}`)).status).toBe(204);
      const refused = await one.admin.send('DELETE', `/projects/${project.id}`);
      expectProblem(refused, 409);
      expect((refused.body as { detail: string }).detail).toContain('issues');
      const moved = await one.admin.json('PATCH', `/issues/${issue.id}?archived=true`, {
        projectId: one.projects[0]?.id,
      });
      expect(recordOf<IssueJson>(moved, 'issue', 'admin').archivedAt).toMatch(DATE_TIME);
      expect((await one.admin.send('DELETE', `/projects/${project.id}`)).status).toBe(204);
    },
  });
