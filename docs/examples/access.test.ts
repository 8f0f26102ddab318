// docs/access.md's tracker (access.ts), called in process with real tokens: each rule the page
// describes, on the memory store.
import { memoryStore } from '@resourcery/core';
import { callApi } from '@resourcery/testing';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { trackerApi } from './access.js';

const SECRET = 'a secret for the docs tests';

async function token(claims: Record<string, unknown>, expiresIn = '1h'): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(SECRET));
}

async function setup() {
  const api = trackerApi(memoryStore(), SECRET);
  const as = async (sub: number, org: number, role: string) => ({
    authorization: `Bearer ${await token({ sub: String(sub), org, role })}`,
  });
  const call = async (headers: Record<string, string>, method: string, path: string, body?: unknown) =>
    callApi(api, { method, path, headers, ...(body === undefined ? {} : { body }) });
  const admin1 = await as(1, 1, 'admin');
  const member1 = await as(2, 1, 'member');
  const viewer1 = await as(3, 1, 'viewer');
  const admin2 = await as(9, 2, 'admin');
  await call(admin1, 'POST', '/users', { name: 'Ada', email: 'ada@one.example' });
  await call(admin1, 'POST', '/projects', { name: 'Web' });
  await call(member1, 'POST', '/issues', { projectId: 1, title: 'Crash' });
  return { call, admin1, member1, viewer1, admin2 };
}

describe('the access model of docs/access.md', () => {
  it('authenticates first: no token, a bad one or an expired one is 401 with WWW-Authenticate', async () => {
    const { call } = await setup();
    for (const headers of <Record<string, string>[]>[
      {},
      { authorization: 'Bearer nope' },
      { authorization: `Bearer ${await token({ sub: '1', org: 1, role: 'admin' }, '-1s')}` },
    ]) {
      const reply = await call(headers, 'GET', '/issues/999');
      expect(reply.status).toBe(401);
      expect(reply.headers['WWW-Authenticate']).toMatch(/^Bearer/);
    }
  });

  it('roles: a viewer reads but writes nothing (403 before the body), a member may not destroy', async () => {
    const { call, viewer1, member1 } = await setup();
    expect((await call(viewer1, 'GET', '/issues')).status).toBe(200);
    expect((await call(viewer1, 'POST', '/issues', 'not json')).status).toBe(403);
    expect((await call(member1, 'DELETE', '/issues/1')).status).toBe(403);
  });

  it('tenancy: another organization’s records do not exist, and orgId is the server’s', async () => {
    const { call, admin2, member1 } = await setup();
    expect((await call(admin2, 'GET', '/issues/1')).status).toBe(404);
    expect((await call(admin2, 'GET', '/issues')).body).toEqual({ issues: [] });
    const foreign = await call(admin2, 'POST', '/issues', { projectId: 1, title: 'Mine?' });
    const nowhere = await call(admin2, 'POST', '/issues', { projectId: 999, title: 'Mine?' });
    expect(foreign.status).toBe(422);
    expect(foreign.body).toEqual(nowhere.body);
    expect((await call(member1, 'POST', '/issues', { projectId: 1, title: 'x', orgId: 2 })).status).toBe(422);
    // Unique within an organization: the same project name in another one is fine.
    expect((await call(admin2, 'POST', '/projects', { name: 'Web' })).status).toBe(200);
  });

  it('fields: email only for admins; priority changed only by admins', async () => {
    const { call, admin1, member1 } = await setup();
    expect((await call(admin1, 'GET', '/users/1')).body).toMatchObject({ user: { email: 'ada@one.example' } });
    const asMember = await call(member1, 'GET', '/users/1');
    expect(asMember.body).not.toHaveProperty('user.email');
    expect((await call(member1, 'GET', '/users?filter[email]=ada@one.example')).status).toBe(400);
    const changed = await call(member1, 'PATCH', '/issues/1', { priority: 1 });
    expect(changed.status).toBe(403);
    expect(changed.body).toMatchObject({ errors: { priority: ['may not be changed by you'] } });
    expect((await call(member1, 'PATCH', '/issues/1', { priority: 3, title: 'Crash on start' })).status).toBe(200);
  });

  it('comments: authorId from the token; members change only theirs', async () => {
    const { call, admin1, member1 } = await setup();
    const mine = await call(member1, 'POST', '/comments', { issueId: 1, body: 'Seen it too' });
    expect(mine.body).toMatchObject({ comment: { authorId: 2 } });
    const theirs = await call(admin1, 'POST', '/comments', { issueId: 1, body: 'Looking' });
    const id = (theirs.body as { comment: { id: number } }).comment.id;
    expect((await call(member1, 'PATCH', `/comments/${id}`, { body: 'Mine now' })).status).toBe(403);
    expect((await call(member1, 'DELETE', '/comments/1')).status).toBe(204);
  });

  it('archive: DELETE archives; the issue is then 404 unless archived=true', async () => {
    const { call, admin1 } = await setup();
    expect((await call(admin1, 'DELETE', '/issues/1')).status).toBe(204);
    expect((await call(admin1, 'GET', '/issues/1')).status).toBe(404);
    expect((await call(admin1, 'GET', '/issues')).body).toEqual({ issues: [] });
    const archived = await call(admin1, 'GET', '/issues?archived=true');
    expect((archived.body as { issues: { archivedAt: string }[] }).issues[0]?.archivedAt).toMatch(/Z$/);
    expect((await call(admin1, 'GET', '/issues/1?archived=true')).status).toBe(200);
  });
});
