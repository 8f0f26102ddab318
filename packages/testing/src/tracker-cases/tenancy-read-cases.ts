import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { expectProblem } from '../http-client.js';
import {
  type CommentJson,
  type IssueJson,
  idsOf,
  type Json,
  listOf,
  missingId,
  normalized,
  type ProjectJson,
  RESOURCE_NAMES,
  type ResourceName,
  TRACKER,
  totalOf,
} from './tracker-records.js';
import type { Caller } from './tracker-tokens.js';
import { type Org, secretsOf, seedWorld } from './tracker-world.js';

// CONTRACT part 4, "Tenancy": a record of another organization is absent on every path that
// reads or counts, exactly as if it did not exist: show, index, X-Total-Count, include= and
// relation filters.

const plural = (name: ResourceName) => `${name}s` as 'users';
const recordsOf = (org: Org, name: ResourceName) => org[plural(name)] as unknown as Json[];
const rolesOf = (org: Org): [string, Caller][] => [
  ['admin', org.admin],
  ['member', org.member],
  ['viewer', org.viewer],
];

/** Asserts that no text of `replies` holds one of `secrets`. */
function expectNoneOf(texts: readonly string[], secrets: readonly string[]): void {
  for (const text of texts) {
    for (const secret of secrets) expect(text.includes(secret), `an answer names "${secret}": ${text}`).toBe(false);
  }
}

export const tenancyReadCases = (secret: string) =>
  group('tenancy: reads', (api) => seedWorld(api, secret), {
    async 'tenancy: another organization’s record is 404 on show, exactly as a record that does not exist'(
      _api,
      { one, two },
    ) {
      for (const name of RESOURCE_NAMES) {
        for (const [role, caller] of rolesOf(one)) {
          for (const record of recordsOf(two, name)) {
            const missing = missingId(name);
            const theirs = await caller.get(`${TRACKER[name].path}/${record.id}`);
            const nowhere = await caller.get(`${TRACKER[name].path}/${missing}`);
            expectProblem(theirs, 404);
            expect(normalized(theirs, [record.id as number]), `${role} ${name}`).toBe(normalized(nowhere, [missing]));
            expectNoneOf([theirs.text], secretsOf(two));
          }
        }
      }
    },

    async 'tenancy: an index never lists and X-Total-Count never counts another organization’s records'(
      _api,
      { one, two },
    ) {
      for (const name of RESOURCE_NAMES) {
        const own = idsOf(recordsOf(one, name));
        const theirs = recordsOf(two, name).map((record) => record.id);
        for (const [role, caller] of rolesOf(one)) {
          const listed = await listOf(caller, name);
          expect(idsOf(listed), `${role} lists its organization’s ${name}s`).toEqual(own);
          expect(listed.every((record) => record.orgId === one.id)).toBe(true);
          expect(await totalOf(caller, name), `${role} counts ${name}s`).toBe(own.length);
          const byId = theirs.map((id) => `filter[id][]=${id}`).join('&');
          for (const query of [byId, `filter[orgId]=${two.id}`, `filter[orgId][ne]=${one.id}`]) {
            expect(await listOf(caller, name, query), `${role}: ${name}s?${query}`).toEqual([]);
            expect(await totalOf(caller, name, query), `${role}: count of ${name}s?${query}`).toBe(0);
          }
        }
      }
    },

    async 'tenancy: include= never adds another organization’s record (show and index)'(_api, { one, two }) {
      const caller = one.member;
      const own = (name: ResourceName) => new Set(recordsOf(one, name).map((record) => record.id));
      const check = (records: Json[], relation: string, name: ResourceName) => {
        for (const record of records) {
          const related = record[relation];
          for (const item of (Array.isArray(related) ? related : related === null ? [] : [related]) as Json[]) {
            expect(item.orgId, `${relation} of ${record.id}`).toBe(one.id);
            expect(own(name).has(item.id), `${relation} ${item.id} is one of organization 1’s ${name}s`).toBe(true);
          }
        }
      };
      const issues = await listOf<IssueJson>(caller, 'issue', 'include=project,assignee,comments');
      expect(idsOf(issues)).toEqual(idsOf(one.issues));
      check(issues, 'project', 'project');
      check(issues, 'assignee', 'user');
      check(issues, 'comments', 'comment');
      const projects = await listOf<ProjectJson>(caller, 'project', 'include=issues');
      check(projects, 'issues', 'issue');
      const comments = await listOf<CommentJson>(caller, 'comment', 'include=issue');
      check(comments, 'issue', 'issue');
      const users = await listOf(caller, 'user', 'include=issues');
      check(users, 'issues', 'issue');
      for (const issue of one.issues) {
        const reply = await caller.get(`/issues/${issue.id}?include=project,assignee,comments`);
        expect(reply.status, reply.text).toBe(200);
        check([reply.body.issue], 'project', 'project');
        check([reply.body.issue], 'comments', 'comment');
      }
      const texts = [JSON.stringify([issues, projects, comments, users])];
      expectNoneOf(texts, secretsOf(two));
    },

    async 'tenancy: a relation filter never matches through another organization’s records'(_api, { one, two }) {
      const [, theirOnly] = two.projects as [ProjectJson, ProjectJson];
      const queries: [ResourceName, string][] = [
        ['issue', `filter[project.name]=${encodeURIComponent(theirOnly.name)}`],
        ['issue', 'filter[project.name][prefix]=Project%20Two'],
        ['issue', `filter[project.id]=${theirOnly.id}`],
        ['issue', 'filter[assignee.name]=Mallory%20Two'],
        ['issue', 'filter[assignee.name][prefix]=Mallory%20T'],
        ['issue', 'filter[assignee.name][contains]=Two'],
        ['comment', `filter[issue.title]=${encodeURIComponent(two.issues[0]?.title ?? '')}`],
        ['comment', 'filter[issue.title][contains]=Two'],
      ];
      for (const [role, caller] of rolesOf(one)) {
        for (const [name, query] of queries) {
          expect(await listOf(caller, name, query), `${role}: ${name}s?${query}`).toEqual([]);
          expect(await totalOf(caller, name, query), `${role}: count of ${name}s?${query}`).toBe(0);
        }
      }
      // The same queries find organization 2's own records for its callers.
      for (const [name, query] of queries) {
        expect((await listOf(two.member, name, query)).length, `organization 2: ${name}s?${query}`).toBeGreaterThan(0);
      }
      // A name both organizations use matches only the caller's organization's records.
      const roadmap = await listOf<IssueJson>(one.viewer, 'issue', 'filter[project.name]=Roadmap');
      const expected = one.issues.filter((issue) => issue.projectId === one.projects[0]?.id);
      expect(idsOf(roadmap)).toEqual(idsOf(expected));
      const casey = await listOf<IssueJson>(two.member, 'issue', 'filter[assignee.name]=Casey%20Common');
      expect(casey).toEqual([]);
    },
  });
