import { memoryStore } from '@resourcery/core';
import { createListener } from '@resourcery/node';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { accessApi, type issues, type notices, tokenFor, type users } from '../../../test-support/access-resources.js';
import { ResourceError, resourceClient } from '../src/index.js';

// The typed client with a bearer token (`token`) against an API with `authenticate: bearerJwt(...)`
// over real HTTP: tokens minted with jose, the token function called per request, and the 401
// and 403 problems surfacing as ResourceErrors with their status and `errors`.

let target: HttpSuiteTarget;
let admin: string;
let member: string;
let viewer: string;
beforeAll(async () => {
  target = await serveHttp(createListener({ ...accessApi, store: memoryStore(), basePath: '/api' }));
  admin = await tokenFor({ sub: 1, org: 1, role: 'admin' });
  member = await tokenFor({ sub: 2, org: 1, role: 'member' });
  viewer = await tokenFor({ sub: 3, org: 1, role: 'viewer' });
});
afterAll(() => target.close());

const usersAs = (token: Parameters<typeof resourceClient<typeof users>>[0]['token']) =>
  resourceClient<typeof users>({ baseUrl: target.baseUrl, name: 'user', token });

async function failure(call: Promise<unknown>): Promise<ResourceError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ResourceError);
  return error as ResourceError;
}

describe('resourceClient({ token })', () => {
  it('sends a string token as Authorization: Bearer, and the server reads the principal from it', async () => {
    const ada = await usersAs(admin).create({ name: 'Ada', email: 'ada@example.com', role: 'member' });
    expect(ada).toEqual({ id: ada.id, orgId: 1, name: 'Ada', email: 'ada@example.com', role: 'member' });
    // Another role sees the same user without the field only admins read.
    expect(await usersAs(member).show(ada.id)).toEqual({ id: ada.id, orgId: 1, name: 'Ada', role: 'member' });
  });

  it('calls a token function per request, so that a refreshed token is used', async () => {
    let current = viewer;
    const token = vi.fn(async () => current);
    const client = usersAs(token);
    const refused = await failure(client.create({ name: 'Grace', email: 'grace@example.com', role: 'viewer' }));
    expect(refused.status).toBe(403);
    current = admin; // refreshed: an admin's token from now on
    const grace = await client.create({ name: 'Grace', email: 'grace@example.com', role: 'viewer' });
    expect(grace.email).toBe('grace@example.com');
    expect(token).toHaveBeenCalledTimes(2);
    // A synchronous function too; one answering nothing sends no token (401).
    expect((await usersAs(() => admin).show(grace.id)).name).toBe('Grace');
    expect((await failure(usersAs(() => undefined).show(grace.id))).status).toBe(401);
  });

  it('surfaces a 401 as a ResourceError with its status, code and challenge', async () => {
    const missing = await failure(usersAs(undefined).index());
    expect(missing).toMatchObject({ status: 401, code: 'unauthorized', errors: {} });
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    const expired = await tokenFor({ sub: 1, org: 1, role: 'admin' }, { exp: Math.floor(Date.now() / 1000) - 60 });
    const forged = await tokenFor({ sub: 1, org: 1, role: 'admin' }, { secret: 'another-secret' });
    for (const token of [expired, forged, 'not-a-jwt']) {
      const refused = await failure(usersAs(token).index());
      expect(refused).toMatchObject({ status: 401, code: 'unauthorized' });
      expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    }
  });

  it("surfaces a 403 as a ResourceError with its status and the fields' errors", async () => {
    const asAdmin = resourceClient<typeof issues>({ baseUrl: target.baseUrl, name: 'issue', token: admin });
    const asMember = resourceClient<typeof issues>({ baseUrl: target.baseUrl, name: 'issue', token: member });
    const issue = await asAdmin.create({ title: 'Crash on start', priority: 2 });
    const field = await failure(asMember.update(issue.id, { priority: 1 }));
    expect(field).toMatchObject({
      status: 403,
      code: 'forbidden',
      errors: { priority: ['may not be changed by you'] },
    });
    // The stored value passes; so do the fields members may change.
    expect(await asMember.update(issue.id, { priority: 2, title: 'Crash on start-up' })).toMatchObject({
      title: 'Crash on start-up',
    });
    const action = await failure(asMember.destroy(issue.id));
    expect(action).toMatchObject({ status: 403, code: 'forbidden', errors: {} });
  });

  it("lets a call's own Authorization header win, and reads anonymous resources without a token", async () => {
    const client = usersAs(viewer);
    const created = await client.create(
      { name: 'Linus', email: 'linus@example.com', role: 'viewer' },
      { headers: { authorization: `Bearer ${admin}` } },
    );
    expect(created.name).toBe('Linus');
    const board = resourceClient<typeof notices>({ baseUrl: target.baseUrl, name: 'notice' });
    expect((await board.index()).records).toEqual([]);
  });
});
