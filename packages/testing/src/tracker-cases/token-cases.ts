import { expect } from 'vitest';
import type { Case } from '../http-cases/group.js';
import { expectProblem } from '../http-client.js';
import { counts, everyActionRefused, expectUnauthorized, validBodies } from './auth-helpers.js';
import { anonymous, mintToken, now, type Role, tamperedToken } from './tracker-tokens.js';
import type { World } from './tracker-world.js';

// CONTRACT part 4, "Authentication", the tokens themselves: HS256 with the tracker's secret,
// `exp` honoured, the claims `sub` (a positive integer, as a number or a decimal string), `org`
// (a positive integer) and `role` (viewer, member or admin); and the OpenAPI document, which
// needs no token.

interface Operation {
  readonly security?: Record<string, unknown>[];
  readonly responses?: Record<string, unknown>;
}

/** Every operation of an OpenAPI document, labelled `method path`. */
function operationsOf(document: { paths?: Record<string, Record<string, unknown>> }) {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'patch', 'put', 'delete'].includes(method))
      .map(([method, operation]) => ({ label: `${method} ${path}`, operation: operation as Operation })),
  );
}

/** The cases of the authentication group about tokens and the OpenAPI document. */
export const tokenCases = (secret: string): Record<string, Case<World>> => ({
  async 'authentication: a token signed with another secret or another algorithm, or edited after signing, is 401'(
    _api,
    world,
  ) {
    const claims = { sub: 12, org: 1, role: 'member' };
    const member = await mintToken(claims, { secret });
    const tokens = [
      await mintToken(claims, { secret: 'not-the-tracker-secret' }),
      await mintToken(claims, { secret: `${secret}x` }),
      await mintToken(claims, { secret, alg: 'HS384' }),
      await mintToken(claims, { secret, alg: 'HS512' }),
      tamperedToken(member, { ...claims, role: 'admin' }),
      tamperedToken(member, { ...claims, org: 2 }),
    ];
    const before = await counts(world);
    for (const token of tokens) {
      const caller = anonymous(world.api).withAuthorization(`Bearer ${token}`);
      await everyActionRefused(world, caller, token.slice(0, 40), token);
    }
    expect(await counts(world)).toEqual(before);
  },

  async 'authentication: an expired token is 401; one that expires later is accepted'(_api, world) {
    const claims = { sub: 12, org: 1, role: 'member' };
    const expired = await mintToken({ ...claims, exp: now() - 60 }, { secret });
    const caller = anonymous(world.api).withAuthorization(`Bearer ${expired}`);
    await everyActionRefused(world, caller, 'expired', expired);
    for (const exp of ['9999999999', null, true]) {
      const token = await mintToken({ ...claims, exp }, { secret });
      expectUnauthorized(await caller.withAuthorization(`Bearer ${token}`).get('/issues'), `exp ${exp}`, token);
    }
    const later = await mintToken({ ...claims, exp: now() + 600 }, { secret });
    const reply = await caller.withAuthorization(`Bearer ${later}`).get('/issues');
    expect(reply.status, reply.text).toBe(200);
  },

  async 'authentication: a token that lacks sub, org or role, or holds a malformed one, is 401'(_api, world) {
    const good: Record<string, unknown> = { sub: 12, org: 1, role: 'member' };
    const variants: Record<string, unknown>[] = [
      { org: 1, role: 'member' },
      { sub: 12, role: 'member' },
      { sub: 12, org: 1 },
      {},
    ];
    const bad: Record<string, unknown[]> = {
      sub: [0, -1, 1.5, 'abc', '', '-3', '1e3', '0x10', ' 12', true, null, [12], { id: 12 }, 2 ** 53],
      org: [0, -2, 1.5, 'x', '1', null, true, [1], { id: 1 }, 2 ** 53],
      role: ['owner', 'Admin', 'ADMIN', '', ' admin', null, 1, ['admin'], { role: 'admin' }],
    };
    for (const [claim, values] of Object.entries(bad)) {
      for (const value of values) variants.push({ ...good, [claim]: value });
    }
    const anon = anonymous(world.api);
    for (const claims of variants) {
      const token = await mintToken(claims, { secret });
      const caller = anon.withAuthorization(`Bearer ${token}`);
      expectUnauthorized(await caller.get('/issues'), JSON.stringify(claims), token);
      expectUnauthorized(await caller.json('POST', '/comments', validBodies(world).comment), JSON.stringify(claims));
    }
    const reply = await anon.withAuthorization(`Bearer ${await mintToken(good, { secret })}`).get('/issues');
    expect(reply.status, reply.text).toBe(200);
  },

  async 'authentication: sub is a positive integer given as a number or as a decimal string'(_api, world) {
    const issueId = world.one.issues[0]?.id;
    const anon = anonymous(world.api);
    const as = async (sub: number | string, role: Role = 'member') =>
      anon.withAuthorization(`Bearer ${await mintToken({ sub, org: 1, role }, { secret })}`);
    const created = await (await as('4711')).json('POST', '/comments', { issueId, body: 'By a string sub' });
    expect(created.status, created.text).toBe(200);
    expect(created.body.comment.authorId).toBe(4711);
    // The same user with `sub` as a number is the same author: the comment is theirs.
    const edited = await (await as(4711)).json('PATCH', `/comments/${created.body.comment.id}`, { body: 'Edited' });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.comment).toMatchObject({ authorId: 4711, body: 'Edited' });
    const other = await (await as('4712')).json('PATCH', `/comments/${created.body.comment.id}`, { body: 'Not mine' });
    expectProblem(other, 403);
  },

  async 'authentication: /api/openapi.json needs no token and declares the bearer scheme, 401 and 403 on every operation'(
    _api,
    world,
  ) {
    const reply = await anonymous(world.api).get('/openapi.json');
    expect(reply.status, reply.text).toBe(200);
    const document = reply.body;
    const schemes = Object.entries(document.components?.securitySchemes ?? {}) as [string, Record<string, string>][];
    const bearer = schemes.filter(([, scheme]) => scheme.type === 'http' && /^bearer$/i.test(scheme.scheme ?? ''));
    expect(bearer.length, JSON.stringify(schemes)).toBeGreaterThan(0);
    const names = bearer.map(([name]) => name);
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThanOrEqual(10);
    for (const { label, operation } of operations) {
      const security = operation.security ?? (document.security as Record<string, unknown>[] | undefined) ?? [];
      expect(
        security.some((entry) => names.some((name) => name in entry)),
        `${label} requires the bearer scheme`,
      ).toBe(true);
      expect(Object.keys(operation.responses ?? {}), label).toEqual(expect.arrayContaining(['401', '403']));
    }
  },
});
