import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { expectProblem } from '../http-client.js';
import { expectErrors } from '../library-cases/library-fixtures.js';
import {
  type CommentJson,
  create,
  fieldsFor,
  type IssueJson,
  type Json,
  listOf,
  RESOURCE_NAMES,
  type ResourceName,
  recordOf,
  TRACKER,
  type UserJson,
} from './tracker-records.js';
import type { Caller } from './tracker-tokens.js';
import { type Org, seedWorld, type World } from './tracker-world.js';

// CONTRACT part 4, "Roles": viewers read everything of their organization and write nothing;
// members write projects, labels, issues and comments, change and destroy only their own
// comments, destroy nothing else and never change an existing issue's priority; admins do
// everything.

const plural = (name: ResourceName) => `${name}s` as 'users';
const recordsOf = (org: Org, name: ResourceName) => org[plural(name)] as unknown as Json[];

/** A body each resource accepts on create, within organization 1. */
function creates(org: Org): Record<ResourceName, Json> {
  return {
    user: { name: 'Created', email: `created.${Math.random().toString(36).slice(2)}@one.example`, role: 'member' },
    project: { name: `Created ${Math.random().toString(36).slice(2)}` },
    label: { name: `created-${Math.random().toString(36).slice(2)}`, color: '#222222' },
    issue: { projectId: org.projects[0]?.id, title: 'Created issue' },
    comment: { issueId: org.issues[0]?.id, body: 'Created comment' },
  };
}

const CHANGES: Record<ResourceName, Json> = {
  user: { name: 'Changed' },
  project: { name: 'Changed project' },
  label: { color: '#333333' },
  issue: { title: 'Changed issue' },
  comment: { body: 'Changed comment' },
};

/** Everything organization 1 holds, as its admin sees it. */
async function snapshot(world: World): Promise<Json[][]> {
  return Promise.all(RESOURCE_NAMES.map((name) => listOf(world.one.admin, name)));
}

/** Asserts a 403 problem for each write, and that nothing changed. */
async function refused(world: World, caller: Caller, writes: [string, string, Json | undefined][]): Promise<void> {
  const before = await snapshot(world);
  for (const [method, path, body] of writes) {
    const reply = body ? await caller.json(method, path, body) : await caller.send(method, path);
    expectProblem(reply, 403);
  }
  expect(await snapshot(world)).toEqual(before);
}

export const roleCases = (secret: string) =>
  group('roles', (api) => seedWorld(api, secret), {
    async 'roles: a viewer reads every record of the organization (index and show)'(_api, { one }) {
      for (const name of RESOURCE_NAMES) {
        const asAdmin = await listOf(one.admin, name);
        const asViewer = await listOf(one.viewer, name);
        const visible = fieldsFor(name, 'viewer');
        const view = (record: Json) => Object.fromEntries(visible.map((field) => [field, record[field]]));
        expect(asViewer).toEqual(asAdmin.map(view));
        for (const record of asAdmin) {
          const shown = recordOf(await one.viewer.get(`${TRACKER[name].path}/${record.id}`), name, 'viewer');
          expect(shown).toEqual(view(record));
        }
      }
    },

    async 'roles: every write of a viewer is 403, and nothing changes'(_api, world) {
      const { one } = world;
      const writes: [string, string, Json | undefined][] = [];
      const bodies = creates(one);
      for (const name of RESOURCE_NAMES) {
        const path = `${TRACKER[name].path}/${recordsOf(one, name)[0]?.id}`;
        writes.push(
          ['POST', TRACKER[name].path, bodies[name]],
          ['PATCH', path, CHANGES[name]],
          ['DELETE', path, undefined],
        );
      }
      await refused(world, one.viewer, writes);
    },

    async 'roles: a member creates and updates projects, labels, issues and comments'(_api, { one }) {
      const bodies = creates(one);
      for (const name of ['project', 'label', 'issue', 'comment'] as const) {
        const created = await create(one.member, name, 'member', bodies[name]);
        expect(created.orgId).toBe(one.id);
        const updated = recordOf(
          await one.member.json('PATCH', `${TRACKER[name].path}/${created.id}`, CHANGES[name]),
          name,
          'member',
        );
        expect(updated).toMatchObject(CHANGES[name]);
      }
      // Issues have no owner: a member changes an issue another member wrote.
      const typo = one.issues[2] as IssueJson;
      const reply = await one.member.json('PATCH', `/issues/${typo.id}`, { status: 'done' });
      expect(recordOf<IssueJson>(reply, 'issue', 'member').status).toBe('done');
    },

    async 'roles: a member may not write users, nor destroy issues, projects or labels (403), nothing changes'(
      _api,
      world,
    ) {
      const { one } = world;
      const user = one.users[1] as UserJson;
      await refused(world, one.member, [
        ['POST', '/users', creates(one).user],
        ['PATCH', `/users/${user.id}`, { name: 'Promoted', role: 'admin' }],
        ['DELETE', `/users/${user.id}`, undefined],
        ['DELETE', `/issues/${one.issues[0]?.id}`, undefined],
        ['DELETE', `/projects/${one.projects[1]?.id}`, undefined],
        ['DELETE', `/labels/${one.labels[1]?.id}`, undefined],
      ]);
    },

    async 'roles: a member changes and destroys only the comments they wrote; another’s is 403'(_api, world) {
      const { one } = world;
      const [mine, theirs] = one.comments as [CommentJson, CommentJson];
      expect(mine.authorId).toBe(one.member.claims?.sub);
      expect(theirs.authorId).toBe(one.otherMember.claims?.sub);
      await refused(world, one.member, [
        ['PATCH', `/comments/${theirs.id}`, { body: 'Not yours' }],
        ['PATCH', `/comments/${theirs.id}`, {}],
        ['DELETE', `/comments/${theirs.id}`, undefined],
      ]);
      const edited = await one.member.json('PATCH', `/comments/${mine.id}`, { body: 'Mine, edited' });
      expect(recordOf<CommentJson>(edited, 'comment', 'member')).toMatchObject({
        body: 'Mine, edited',
        authorId: mine.authorId,
      });
      const own = await one.otherMember.json('PATCH', `/comments/${theirs.id}`, { body: 'Theirs, edited' });
      expect(recordOf<CommentJson>(own, 'comment', 'member').body).toBe('Theirs, edited');
      expect((await one.member.send('DELETE', `/comments/${mine.id}`)).status).toBe(204);
      expectProblem(await one.member.get(`/comments/${mine.id}`), 404);
      expect((await one.otherMember.get(`/comments/${theirs.id}`)).status).toBe(200);
    },

    async 'roles: authorId is the token’s sub; sending it is 422 read-only'(_api, { one }) {
      const issueId = one.issues[1]?.id;
      const created = await create<CommentJson>(one.otherMember, 'comment', 'member', { issueId, body: 'By sub' });
      expect(created.authorId).toBe(one.otherMember.claims?.sub);
      const sub = one.member.claims?.sub;
      expectErrors(await one.member.json('POST', '/comments', { issueId, body: 'x', authorId: sub }), {
        authorId: ['is read-only'],
      });
      expectErrors(await one.otherMember.json('PATCH', `/comments/${created.id}`, { authorId: sub }), {
        authorId: ['is read-only'],
      });
      expect(recordOf(await one.admin.get(`/comments/${created.id}`), 'comment', 'admin')).toEqual(created);
    },

    async 'roles: a member may not change an existing issue’s priority: 403 naming priority; the stored value passes'(
      _api,
      { one },
    ) {
      const issue = one.issues[0] as IssueJson;
      for (const body of [{ priority: 3 }, { priority: 1, title: 'Also renamed' }, { issue: { priority: 4 } }]) {
        const problem = expectProblem(await one.member.json('PATCH', `/issues/${issue.id}`, body), 403);
        expect(Object.keys(problem.errors ?? {}), JSON.stringify(problem)).toEqual(['priority']);
        expect(problem.errors.priority.length).toBeGreaterThan(0);
      }
      expect(recordOf(await one.admin.get(`/issues/${issue.id}`), 'issue', 'admin')).toEqual(issue);
      const same = await one.member.json('PATCH', `/issues/${issue.id}`, { priority: issue.priority, title: 'Kept' });
      expect(recordOf<IssueJson>(same, 'issue', 'member')).toMatchObject({ priority: issue.priority, title: 'Kept' });
      // On create, a member chooses the priority.
      const urgent = await create<IssueJson>(one.member, 'issue', 'member', { ...creates(one).issue, priority: 1 });
      expect(urgent.priority).toBe(1);
    },

    async 'roles: an admin does everything: users, priorities, others’ comments, destroys'(_api, { one }) {
      const user = await create<UserJson>(one.admin, 'user', 'admin', creates(one).user);
      expect(
        recordOf<UserJson>(await one.admin.json('PATCH', `/users/${user.id}`, { role: 'admin' }), 'user', 'admin').role,
      ).toBe('admin');
      const issue = one.issues[1] as IssueJson;
      const reprioritized = await one.admin.json('PATCH', `/issues/${issue.id}`, { priority: 1 });
      expect(recordOf<IssueJson>(reprioritized, 'issue', 'admin').priority).toBe(1);
      const comment = one.comments[2] as CommentJson;
      expect((await one.admin.json('PATCH', `/comments/${comment.id}`, { body: 'Moderated' })).status).toBe(200);
      expect((await one.admin.send('DELETE', `/comments/${comment.id}`)).status).toBe(204);
      expect((await one.admin.send('DELETE', `/labels/${one.labels[1]?.id}`)).status).toBe(204);
      // A project that issues refer to: 409; an empty one goes.
      expectProblem(await one.admin.send('DELETE', `/projects/${one.projects[0]?.id}`), 409);
      const empty = await create(one.admin, 'project', 'admin', creates(one).project);
      expect((await one.admin.send('DELETE', `/projects/${empty.id}`)).status).toBe(204);
      // A user that issues are assigned to goes; the issues lose their assignee.
      const assignee = one.users[1] as UserJson;
      expect((await one.admin.send('DELETE', `/users/${assignee.id}`)).status).toBe(204);
      expect(recordOf<IssueJson>(await one.admin.get(`/issues/${issue.id}`), 'issue', 'admin').assigneeId).toBeNull();
    },
  });
