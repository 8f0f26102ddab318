import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { enc, expectProblem, type HttpClient, parseLinks, type Reply } from '../http-client.js';
import { type CommentJson, create, type IssueJson, type Json, missingId, type UserJson } from './tracker-records.js';
import { secretsOf, seedWorld } from './tracker-world.js';

// CONTRACT, "What no answer may reveal", on the tracker: an ETag tells nothing of a hidden field
// (it is no plain hash of the record), a cursor is opaque, short and refused on another resource,
// query or organization, and no error message names a hidden record's values.

/** The tag's opaque part: without `W/` and the quotes. */
const opaque = (tag: string) => tag.replace(/^W\//, '').replace(/^"|"$/g, '');

/** The ways one might hash a record: its JSON (as shown, sorted, under its key, as sorted entries), in hex, base64 and base64url. */
function plainHashes(records: readonly Json[], key: string): string[] {
  const sorted = (record: Json) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
  const texts = records.flatMap((record) => [
    JSON.stringify(record),
    JSON.stringify(sorted(record)),
    JSON.stringify({ [key]: record }),
    // Sorted entries: how the library hashed the whole stored record before its tags were keyed.
    JSON.stringify(
      Object.keys(record)
        .sort()
        .map((field) => [field, record[field] ?? null]),
    ),
  ]);
  return texts.flatMap((text) => {
    const digest = createHash('sha256').update(text).digest();
    return [digest.toString('hex'), digest.toString('base64'), digest.toString('base64url')];
  });
}

/** Asserts that a tag is none of these hashes, nor a piece of 16 characters or more of one. */
function expectNotAHashOf(tag: string, hashes: readonly string[]): void {
  const value = opaque(tag);
  for (const hash of hashes) {
    const overlap = value.length >= 16 && (hash.includes(value) || value.includes(hash.slice(0, 16)));
    expect(overlap, `ETag ${tag} is a plain SHA-256 of the record`).toBe(false);
  }
}

/** The `after` of a page's `next` link. */
function afterOf(client: HttpClient, reply: Reply): string {
  expect(reply.status, reply.text).toBe(200);
  const next = parseLinks(reply.headers.get('link')).next;
  expect(next, 'the page links next').toBeTypeOf('string');
  return new URL(client.resolve(next as string)).searchParams.get('after') as string;
}

function parsesAsObject(text: string): boolean {
  try {
    return typeof JSON.parse(text) === 'object';
  } catch {
    return false;
  }
}

async function refusesAfter(client: HttpClient, path: string): Promise<void> {
  expect(expectProblem(await client.get(path), 400).detail, path).toContain('after');
}

export const revealCases = (secret: string) =>
  group('what no answer may reveal', (api) => seedWorld(api, secret), {
    async 'no reveal: an ETag is no plain SHA-256 of the record, as stored or as shown'(_api, { one }) {
      const user = one.users[0] as UserJson;
      const { email: _email, ...shown } = user;
      for (const caller of [one.admin, one.member]) {
        const reply = await caller.get(`/users/${user.id}`);
        expect(reply.status, reply.text).toBe(200);
        const tag = reply.headers.get('etag');
        expect(tag, 'show sends an ETag').toBeTypeOf('string');
        expectNotAHashOf(tag as string, [
          ...plainHashes([user, shown], 'user'),
          createHash('sha256').update(reply.text).digest('hex'),
        ]);
      }
      const issue = one.issues[1] as IssueJson;
      const reply = await one.member.get(`/issues/${issue.id}`);
      expectNotAHashOf(reply.headers.get('etag') ?? '', plainHashes([issue], 'issue'));
    },

    async 'no reveal: an email change leaves a member’s view of the user the same but for updatedAt'(_api, { one }) {
      const user = one.users[1] as UserJson;
      const before = await one.member.get(`/users/${user.id}`);
      const changed = await one.admin.json('PATCH', `/users/${user.id}`, { email: 'changed.address@one.example' });
      expect(changed.status, changed.text).toBe(200);
      const after = await one.member.get(`/users/${user.id}`);
      expect(after.status, after.text).toBe(200);
      const { updatedAt: _before, ...was } = before.body.user;
      const { updatedAt: _after, ...is } = after.body.user;
      expect(is).toEqual(was);
      expect(after.text).not.toContain('changed.address');
      expectNotAHashOf(after.headers.get('etag') ?? '', plainHashes([changed.body.user], 'user'));
    },

    async 'no reveal: a cursor is opaque and under 200 characters, whatever the values it sorts on'(_api, { one }) {
      const issue = one.issues[2] as IssueJson;
      const long = (letter: string) => `${letter}${'Ω'.repeat(3000)}${'secret words '.repeat(50)}`;
      for (const letter of ['d', 'b', 'e', 'a', 'c']) {
        await create<CommentJson>(one.member, 'comment', 'member', { issueId: issue.id, body: long(letter) });
      }
      let path = `/comments?filter[issueId]=${issue.id}&sort=body&per_page=2`;
      for (let page = 0; page < 2; page++) {
        const after = afterOf(one.member, await one.member.get(path));
        expect(after.length).toBeLessThan(200);
        expect(after).toMatch(/^[A-Za-z0-9_.~-]+$/);
        for (const part of after.split('.')) {
          const decoded = Buffer.from(part, 'base64url').toString('utf8');
          for (const leak of ['secret', 'ΩΩ']) expect(decoded).not.toContain(leak);
          expect(parsesAsObject(decoded), `cursor part ${part} is readable JSON`).toBe(false);
        }
        path = `/comments?filter[issueId]=${issue.id}&sort=body&per_page=2&after=${enc(after)}`;
      }
    },

    async 'no reveal: a cursor is refused (400) on another resource, another query, and for another organization'(
      _api,
      world,
    ) {
      const { one, two } = world;
      const issue = one.issues[0] as IssueJson;
      const base = `filter[issueId]=${issue.id}&per_page=1`;
      const after = enc(afterOf(one.member, await one.member.get(`/comments?${base}`)));
      expect((await one.member.get(`/comments?${base}&after=${after}`)).status).toBe(200);
      for (const path of [
        `/issues?per_page=1&after=${after}`,
        `/users?per_page=1&after=${after}`,
        `/comments?filter[issueId]=${one.issues[1]?.id}&per_page=1&after=${after}`,
        `/comments?${base}&sort=body&after=${after}`,
        `/comments?${base}&filter[authorId]=${one.member.claims?.sub}&after=${after}`,
        `/comments?per_page=1&after=${after}`,
      ]) {
        await refusesAfter(one.member, path);
      }
      // Organization 2 may not see the position it stands for: the same query, or none, is a 400.
      const everything = enc(afterOf(one.member, await one.member.get('/comments?per_page=1')));
      expect((await one.member.get(`/comments?per_page=1&after=${everything}`)).status).toBe(200);
      for (const caller of [two.member, two.admin]) {
        await refusesAfter(caller, `/comments?per_page=1&after=${everything}`);
        await refusesAfter(caller, `/comments?${base}&after=${after}`);
      }
    },

    async 'no reveal: no error answer names another organization’s records or a hidden email'(_api, world) {
      const { one, two } = world;
      const secrets = [...secretsOf(two), ...one.users.map((user) => user.email as string)];
      const [theirIssue, theirProject, theirUser] = [two.issues[0], two.projects[1], two.users[1]] as [
        Json,
        Json,
        Json,
      ];
      const requests: [string, string, Json | undefined][] = [
        ['GET', `/issues/${theirIssue.id}`, undefined],
        ['GET', `/users/${theirUser.id}?include=issues`, undefined],
        ['PATCH', `/issues/${theirIssue.id}`, { title: 'x' }],
        ['POST', '/issues', { projectId: theirProject.id, title: 'x' }],
        ['POST', '/issues', { projectId: one.projects[0]?.id, title: 'x', assigneeId: theirUser.id }],
        ['POST', '/comments', { issueId: theirIssue.id, body: 'x' }],
        ['POST', '/projects', { name: 'Roadmap' }],
        ['PATCH', `/issues/${one.issues[0]?.id}`, { priority: 1 }],
        ['GET', '/users?filter[email][prefix]=a', undefined],
        ['GET', '/issues?filter[assignee.email]=x', undefined],
        ['GET', `/issues/${missingId('issue')}`, undefined],
        ['DELETE', `/comments/${two.comments[0]?.id}`, undefined],
      ];
      for (const caller of [one.member, one.viewer]) {
        for (const [method, path, body] of requests) {
          const reply = body ? await caller.json(method, path, body) : await caller.send(method, path);
          expect(reply.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
          for (const value of secrets)
            expect(reply.text.includes(value), `${method} ${path} names ${value}`).toBe(false);
        }
      }
      const conflict = await one.admin.send('DELETE', `/projects/${one.projects[0]?.id}`);
      expectProblem(conflict, 409);
      for (const issue of one.issues) expect(conflict.text).not.toContain(issue.title);
    },
  });
