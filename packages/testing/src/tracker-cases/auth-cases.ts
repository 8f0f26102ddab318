import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { counts, everyActionRefused, expectUnauthorized } from './auth-helpers.js';
import { tokenCases } from './token-cases.js';
import { missingId, normalized, TRACKER } from './tracker-records.js';
import { anonymous, mintToken, unsignedToken } from './tracker-tokens.js';
import { seedWorld } from './tracker-world.js';

// CONTRACT part 4, "Authentication": every request carries a bearer JWT (HS256, the tracker's
// secret) with `sub`, `org`, `role` and optionally `exp`; anything else is a 401 problem with
// `WWW-Authenticate: Bearer`, before anything else is looked at.

export const authCases = (secret: string) =>
  group('authentication', (api) => seedWorld(api, secret), {
    async 'authentication: no token is 401 problem+json with WWW-Authenticate: Bearer on every action of every resource'(
      _api,
      world,
    ) {
      const before = await counts(world);
      await everyActionRefused(world, anonymous(world.api), 'no token');
      const empty = anonymous(world.api);
      expectUnauthorized(await empty.send('GET', '/issues', { headers: { authorization: '' } }), 'empty header');
      expect(await counts(world)).toEqual(before);
      const kept = [
        ['user', world.one.users[0]],
        ['issue', world.one.issues[0]],
        ['comment', world.one.comments[0]],
      ] as const;
      for (const [name, record] of kept) {
        const reply = await world.one.admin.get(`${TRACKER[name].path}/${record?.id}`);
        expect(reply.status, reply.text).toBe(200);
        expect(reply.body[name]).toEqual(record);
      }
    },

    async 'authentication: without a token, an unknown id, a bad query, a bad body or an unknown path is still 401'(
      _api,
      world,
    ) {
      const caller = anonymous(world.api);
      const own = world.one.issues[0]?.id;
      const gets = [
        `/issues/${missingId('issue')}`,
        '/issues/abc',
        '/issues/0',
        '/comments/not-a-uuid',
        `/comments/${missingId('comment')}`,
        '/issues?filter[nope]=1',
        '/issues?sort=-',
        '/issues?per_page=1000',
        '/issues?page=0',
        '/issues?filter=x',
        '/issues?include=nope',
        '/comments?after=garbage',
        '/users?filter[email]=ada.lovelace@one.example',
        '/nope',
        '/nope/1',
      ];
      for (const path of gets) expectUnauthorized(await caller.get(path), `GET ${path}`);
      const writes: [string, string, string | undefined, string | null][] = [
        ['POST', '/issues', '{"title": ', 'application/json'],
        ['POST', '/issues', 'title=x', 'text/plain'],
        ['POST', '/issues', '{}', 'application/json'],
        ['POST', '/issues', '[]', 'application/json'],
        ['POST', '/users', '{"name": "x", "orgId": 2}', 'application/json'],
        ['PATCH', `/issues/${own}`, '{"priority": ', 'application/json'],
        ['PATCH', `/issues/${missingId('issue')}`, '{}', 'application/json'],
        ['PUT', `/issues/${own}`, '{}', 'application/json'],
        ['DELETE', '/issues', undefined, null],
        ['DELETE', `/issues/${missingId('issue')}`, undefined, null],
      ];
      for (const [method, path, body, contentType] of writes) {
        expectUnauthorized(await caller.send(method, path, { body, contentType }), `${method} ${path} ${body}`);
      }
    },

    async 'authentication: 401 is the same answer whether the record exists, belongs to another organization or not'(
      _api,
      world,
    ) {
      const caller = anonymous(world.api);
      const mine = world.one.issues[0]?.id as number;
      const theirs = world.two.issues[0]?.id as number;
      const missing = missingId('issue') as number;
      const texts = [];
      for (const id of [mine, theirs, missing]) texts.push(normalized(await caller.get(`/issues/${id}`), [id]));
      expect(new Set(texts).size, texts.join('\n')).toBe(1);
    },

    async 'authentication: a malformed Authorization header or token is 401'(_api, world) {
      const valid = await mintToken({ sub: 12, org: 1, role: 'member' }, { secret });
      const headers = [
        'Bearer',
        'Bearer abc',
        'Bearer a.b.c',
        'Bearer ....',
        `Bearer ${valid}x`,
        `Bearer ${valid.slice(0, -2)}`,
        `Bearer ${valid}.`,
        `Bearer ${valid} extra`,
        `Bearer ${valid.split('.').slice(0, 2).join('.')}`,
        `Bearer ${unsignedToken({ sub: 12, org: 1, role: 'admin' })}`,
        `Basic ${btoa('admin:admin')}`,
        `Token ${valid}`,
        valid,
      ];
      for (const header of headers) {
        const caller = anonymous(world.api).withAuthorization(header);
        expectUnauthorized(await caller.get('/issues'), header.slice(0, 40), valid);
      }
      // The same token, well-formed, is accepted: the refusals above are the header's and the token's.
      const accepted = await anonymous(world.api).withAuthorization(`Bearer ${valid}`).get('/issues');
      expect(accepted.status, accepted.text).toBe(200);
    },

    ...tokenCases(secret),
  });
