import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { expectProblem } from '../http-client.js';
import {
  expectShape,
  hasKeyDeep,
  type IssueJson,
  type Json,
  listOf,
  recordOf,
  type UserJson,
} from './tracker-records.js';
import type { Caller } from './tracker-tokens.js';
import { emailsOf, type Org, seedWorld } from './tracker-world.js';

// CONTRACT part 4, "Fields hidden by role": a user's `email` is shown to admins only. For other
// roles it is absent from every record (users, include=assignee) and naming it in a query is the
// 400 of a field that does not exist.

const readers = (org: Org): [string, Caller][] => [
  ['member', org.member],
  ['viewer', org.viewer],
];

/** Queries naming `email` (the placeholder `FIELD`), each valid for an admin. */
const QUERIES: readonly string[] = [
  '/users?filter[FIELD]=ada.lovelace%40one.example',
  '/users?filter[FIELD][]=a%40one.example&filter[FIELD][]=b%40one.example',
  '/users?filter[FIELD][prefix]=ada',
  '/users?filter[FIELD][contains]=one',
  '/users?filter[FIELD][ne]=x',
  '/users?sort=FIELD',
  '/users?sort=-FIELD',
  '/users?sort=name,FIELD',
  '/users?fields=FIELD',
  '/users?fields=name,FIELD',
  '/users?include=issues&fields=FIELD',
  '/issues?filter[assignee.FIELD]=ada.lovelace%40one.example',
  '/issues?filter[assignee.FIELD][prefix]=a',
  '/issues?include=assignee&filter[assignee.FIELD][contains]=%40',
];

/** A name no resource has, as long as `email`, so that the two answers compare letter for letter. */
const UNKNOWN = 'emayl';

export const hiddenFieldCases = (secret: string) =>
  group('fields hidden by role', (api) => seedWorld(api, secret), {
    async 'hidden fields: email is shown to admins only, absent from users index and show for members and viewers'(
      _api,
      { one },
    ) {
      const asAdmin = await listOf<UserJson>(one.admin, 'user');
      expect(asAdmin.map((user) => user.email).sort()).toEqual(one.users.map((user) => user.email).sort());
      for (const [role, caller] of readers(one)) {
        const listed = await listOf<UserJson>(caller, 'user');
        const withoutEmail = asAdmin.map(({ email: _email, ...rest }) => rest);
        for (const user of listed) expectShape('user', role, user);
        expect(listed).toEqual(withoutEmail);
        for (const user of one.users) {
          const shown = recordOf<UserJson>(await caller.get(`/users/${user.id}`), 'user', role);
          expect(shown).not.toHaveProperty('email');
        }
      }
    },

    async 'hidden fields: include=assignee never shows email to a member or viewer (show and index); admins see it'(
      _api,
      { one },
    ) {
      const assigned = one.issues[0] as IssueJson;
      for (const [role, caller] of readers(one)) {
        for (const query of [
          'include=assignee',
          'include=assignee,project&fields=title',
          'include=assignee&sort=-id',
        ]) {
          const issues = await listOf<Json>(caller, 'issue', query);
          expect(issues.length).toBe(one.issues.length);
          for (const issue of issues) if (issue.assignee) expectShape('user', role, issue.assignee);
          expect(hasKeyDeep(issues, 'email'), `${role}: ${query}`).toBe(false);
        }
        const shown = await caller.get(`/issues/${assigned.id}?include=assignee`);
        expect(shown.status, shown.text).toBe(200);
        expectShape('user', role, shown.body.issue.assignee);
        const projects = await listOf(caller, 'project', 'include=issues');
        const users = await listOf(caller, 'user', 'include=issues');
        expect(hasKeyDeep([shown.body, projects, users], 'email')).toBe(false);
      }
      const asAdmin = await one.admin.get(`/issues/${assigned.id}?include=assignee`);
      expect(asAdmin.body.issue.assignee).toEqual(one.users[0]);
    },

    async 'hidden fields: filter, sort, fields= and relation filters on email are 400 for others, exactly as an unknown field'(
      _api,
      { one },
    ) {
      for (const [role, caller] of readers(one)) {
        for (const query of QUERIES) {
          const hidden = await caller.get(query.replaceAll('FIELD', 'email'));
          const unknown = await caller.get(query.replaceAll('FIELD', UNKNOWN));
          expectProblem(unknown, 400);
          expectProblem(hidden, 400);
          expect(hidden.text.replaceAll('email', UNKNOWN), `${role}: ${query}`).toBe(unknown.text);
        }
      }
      // For admins the field exists: the same queries answer.
      for (const query of QUERIES) {
        const reply = await one.admin.get(query.replaceAll('FIELD', 'email'));
        expect(reply.status, `admin: ${query}: ${reply.text}`).toBe(200);
        expectProblem(await one.admin.get(query.replaceAll('FIELD', UNKNOWN)), 400);
      }
      const sorted = await listOf<UserJson>(one.admin, 'user', 'sort=email');
      expect(sorted.map((user) => user.email)).toEqual(one.users.map((user) => user.email).sort());
    },

    async 'hidden fields: no answer to a member or viewer carries an email, anywhere'(_api, world) {
      const { one } = world;
      const emails = emailsOf(world);
      const paths = [
        '/users',
        '/users?include=issues',
        '/users?sort=-name&fields=name,role',
        ...one.users.map((user) => `/users/${user.id}?include=issues`),
        '/issues?include=assignee,project,comments',
        ...one.issues.map((issue) => `/issues/${issue.id}?include=assignee`),
        '/projects?include=issues',
        '/comments?include=issue',
        `/issues?filter[assignee.name]=${encodeURIComponent(one.users[0]?.name ?? '')}&include=assignee`,
        `/users/${world.two.users[0]?.id}`,
      ];
      for (const [role, caller] of readers(one)) {
        for (const path of paths) {
          const reply = await caller.get(path);
          for (const email of emails) expect(reply.text.includes(email), `${role} ${path}: ${reply.text}`).toBe(false);
          if (reply.status === 200) expect(hasKeyDeep(reply.body, 'email'), `${role} ${path}`).toBe(false);
        }
      }
    },
  });
