import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { expectProblem, type Reply } from '../http-client.js';
import { expectErrors } from '../library-cases/library-fixtures.js';
import {
  type CommentJson,
  create,
  type IssueJson,
  type Json,
  listOf,
  missingId,
  normalized,
  type ProjectJson,
  RESOURCE_NAMES,
  type ResourceName,
  TRACKER,
  totalOf,
  type UserJson,
} from './tracker-records.js';
import { callerOf } from './tracker-tokens.js';
import { type Org, seedWorld, subOf, type World } from './tracker-world.js';

// CONTRACT part 4, "Tenancy": on every path that changes or references records, another
// organization's records do not exist (update and destroy 404, a foreign key naming one 422
// `does not exist`, byte for byte the answer for an id that exists nowhere); `orgId` comes from
// the token; unique values are unique within an organization.

const plural = (name: ResourceName) => `${name}s` as 'users';
const recordsOf = (org: Org, name: ResourceName) => org[plural(name)] as unknown as Json[];

/** A valid update of each resource (no foreign key, no field a member may not change). */
const CHANGES: Record<ResourceName, Json> = {
  user: { name: 'Renamed' },
  project: { name: 'Renamed project' },
  label: { color: '#abcdef' },
  issue: { title: 'Renamed issue' },
  comment: { body: 'Rewritten' },
};

/** Two answers that must be the same, byte for byte: status, content type and body. */
function expectSameAnswer(a: Reply, b: Reply, label: string): void {
  expect(a.status, `${label}: ${a.text}`).toBe(b.status);
  expect(a.headers.get('content-type'), label).toBe(b.headers.get('content-type'));
  expect(a.text, label).toBe(b.text);
}

/** What organization 2 holds, as its admin sees it: nothing organization 1 does may change it. */
async function snapshot(world: World): Promise<Json[][]> {
  return Promise.all(RESOURCE_NAMES.map((name) => listOf(world.two.admin, name)));
}

export const tenancyWriteCases = (secret: string) =>
  group('tenancy: writes', (api) => seedWorld(api, secret), {
    async 'tenancy: another organization’s record is 404 on update and destroy, exactly as one that does not exist'(
      _api,
      world,
    ) {
      const before = await snapshot(world);
      for (const name of RESOURCE_NAMES) {
        for (const record of recordsOf(world.two, name)) {
          const path = `${TRACKER[name].path}/${record.id}`;
          const missing = missingId(name);
          const nowhere = `${TRACKER[name].path}/${missing}`;
          const { admin } = world.one;
          for (const [method, body] of [
            ['PATCH', CHANGES[name]],
            ['DELETE', undefined],
          ] as const) {
            const theirs = body ? await admin.json(method, path, body) : await admin.send(method, path);
            const none = body ? await admin.json(method, nowhere, body) : await admin.send(method, nowhere);
            expectProblem(theirs, 404);
            expect(normalized(theirs, [record.id as number]), `${method} ${path}`).toBe(normalized(none, [missing]));
          }
        }
      }
      expect(await snapshot(world)).toEqual(before);
    },

    async 'tenancy: a caller of another organization with the same sub cannot touch that sub’s comments'(_api, world) {
      const comment = world.one.comments[0] as CommentJson;
      const twin = await callerOf(world.api, { sub: subOf(1, 2), org: world.two.id, role: 'member' }, secret);
      expectProblem(await twin.get(`/comments/${comment.id}`), 404);
      expectProblem(await twin.json('PATCH', `/comments/${comment.id}`, { body: 'Hijacked' }), 404);
      expectProblem(await twin.send('DELETE', `/comments/${comment.id}`), 404);
      const mine = await listOf<CommentJson>(twin, 'comment', `filter[authorId]=${subOf(1, 2)}`);
      expect(mine).toEqual([]);
      const kept = await world.one.member.get(`/comments/${comment.id}`);
      expect(kept.body?.comment).toEqual(comment);
    },

    async 'tenancy: orgId is set from the token on create; sending it is 422 read-only, even the caller’s own'(
      _api,
      world,
    ) {
      const { one, two } = world;
      expect((await create<ProjectJson>(one.member, 'project', 'member', { name: 'Set by token' })).orgId).toBe(one.id);
      expect((await create<ProjectJson>(two.member, 'project', 'member', { name: 'Set by token' })).orgId).toBe(two.id);
      const issue = one.issues[0] as IssueJson;
      const issues = await totalOf(one.admin, 'issue');
      for (const orgId of [one.id, two.id, null, '1']) {
        const body = { projectId: one.projects[0]?.id, title: 'Smuggled', orgId };
        expectErrors(await one.admin.json('POST', '/issues', body), { orgId: ['is read-only'] });
        expectErrors(await one.admin.json('POST', '/issues', { issue: body }), { orgId: ['is read-only'] });
        expectErrors(await one.admin.json('PATCH', `/issues/${issue.id}`, { title: 'Moved', orgId }), {
          orgId: ['is read-only'],
        });
      }
      expect(await totalOf(one.admin, 'issue')).toBe(issues);
      expect((await one.admin.get(`/issues/${issue.id}`)).body.issue).toEqual(issue);
    },

    async 'tenancy: a foreign key naming another organization’s record is 422 does not exist, byte for byte the answer for an id that exists nowhere'(
      _api,
      world,
    ) {
      const { one, two } = world;
      const [issue] = one.issues as [IssueJson];
      const projectId = one.projects[0]?.id;
      const cases: [string, string, (id: number) => Json, string, number][] = [
        ['POST', '/issues', (id) => ({ projectId: id, title: 'Foreign project' }), 'projectId', two.projects[1]!.id],
        [
          'POST',
          '/issues',
          (id) => ({ projectId, title: 'Foreign user', assigneeId: id }),
          'assigneeId',
          two.users[1]!.id,
        ],
        ['PATCH', `/issues/${issue.id}`, (id) => ({ projectId: id }), 'projectId', two.projects[0]!.id],
        ['PATCH', `/issues/${issue.id}`, (id) => ({ assigneeId: id, title: 'x' }), 'assigneeId', two.users[0]!.id],
        ['POST', '/comments', (id) => ({ issueId: id, body: 'Foreign issue' }), 'issueId', two.issues[0]!.id],
      ];
      const before = [await totalOf(one.admin, 'issue'), await totalOf(one.admin, 'comment')];
      for (const caller of [one.admin, one.member]) {
        for (const [method, path, body, field, theirs] of cases) {
          const foreign = await caller.json(method, path, body(theirs));
          const nowhere = await caller.json(method, path, body(missingId('issue') as number));
          expectErrors(foreign, { [field]: ['does not exist'] });
          expectSameAnswer(foreign, nowhere, `${method} ${path} ${field}`);
        }
      }
      const comment = one.comments[0] as CommentJson;
      const moved = await one.member.json('PATCH', `/comments/${comment.id}`, { issueId: two.issues[0]!.id });
      const nowhere = await one.member.json('PATCH', `/comments/${comment.id}`, { issueId: missingId('issue') });
      expectErrors(moved, { issueId: ['does not exist'] });
      expectSameAnswer(moved, nowhere, 'PATCH /comments issueId');
      expect([await totalOf(one.admin, 'issue'), await totalOf(one.admin, 'comment')]).toEqual(before);
      expect((await one.admin.get(`/issues/${issue.id}`)).body.issue).toEqual(issue);
      expect((await one.admin.get(`/comments/${comment.id}`)).body.comment).toEqual(comment);
      // Organization 2's records stay destroyable: nothing of organization 1 refers to them.
      const user = two.users[1] as UserJson;
      expect((await two.admin.send('DELETE', `/users/${user.id}`)).status).toBe(204);
    },

    async 'tenancy: unique values are unique within an organization only'(_api, { one, two }) {
      const taken = { name: ['is already taken'] };
      for (const [name, values] of [
        ['project', { name: 'Shared name' }],
        ['label', { name: 'shared-label', color: '#111111' }],
      ] as const) {
        await create(one.member, name, 'member', values);
        await create(two.member, name, 'member', values);
        expectErrors(await one.member.json('POST', TRACKER[name].path, values), taken);
        expectErrors(await two.member.json('POST', TRACKER[name].path, values), taken);
      }
      // The seeded "Roadmap" exists in both; a name only organization 2 uses is free in organization 1.
      expectErrors(await one.member.json('POST', '/projects', { name: 'Roadmap' }), taken);
      const renamed = await one.member.json('PATCH', `/projects/${one.projects[1]?.id}`, { name: 'Project Two Only' });
      expect(renamed.status, renamed.text).toBe(200);
      const clash = await one.member.json('PATCH', `/projects/${one.projects[1]?.id}`, { name: 'Roadmap' });
      expectErrors(clash, taken);
      const email = two.users[0]?.email as string;
      const user = await create<UserJson>(one.admin, 'user', 'admin', { name: 'Twin', email, role: 'member' });
      expect(user.email).toBe(email);
      expectErrors(await one.admin.json('POST', '/users', { name: 'Again', email, role: 'member' }), {
        email: ['is already taken'],
      });
      expect((await listOf<UserJson>(two.admin, 'user', `filter[email]=${encodeURIComponent(email)}`)).length).toBe(1);
    },
  });
