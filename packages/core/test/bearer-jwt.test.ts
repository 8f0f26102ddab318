import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/errors/http-error.js';
import { bearerJwt } from '../src/http/bearer-jwt.js';
import type { NeutralRequest } from '../src/http/neutral.js';

// bearerJwt with a secret: the HMAC algorithms it is given, each verified with a key imported once
// per algorithm; and its `cookie` option: the token read from a cookie when a read has no
// Authorization header (a browser's EventSource cannot send one), never for a write.

const SECRET = 'cookie-tests-secret-of-enough-length';
const authenticate = bearerJwt({
  secret: SECRET,
  cookie: 'session',
  principal: (claims) => ({ sub: Number(claims.sub), org: 1, role: 'admin' }),
});
const tokenOf = (sub: string) =>
  new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).sign(new TextEncoder().encode(SECRET));
const request = (method: string, headers: Record<string, string>): NeutralRequest => ({
  method,
  path: '/issues/events',
  basePath: '/api',
  rawQuery: '',
  headers,
});

describe('bearerJwt({ cookie })', () => {
  it('reads the token from the cookie on a GET or HEAD without Authorization, among other cookies, percent-decoded', async () => {
    const token = await tokenOf('7');
    const cookie = `theme=dark; session=${encodeURIComponent(token)}; other=1`;
    expect(await authenticate(request('GET', { cookie }))).toEqual({ sub: 7, org: 1, role: 'admin' });
    expect(await authenticate(request('HEAD', { cookie }))).toEqual({ sub: 7, org: 1, role: 'admin' });
  });

  it('never for a write: a POST with only the cookie is anonymous', async () => {
    const cookie = `session=${await tokenOf('7')}`;
    for (const method of ['POST', 'PATCH', 'DELETE'])
      expect(await authenticate(request(method, { cookie }))).toBeUndefined();
  });

  it('prefers the Authorization header, and without the option ignores cookies', async () => {
    const cookie = `session=${await tokenOf('7')}`;
    const authorization = `Bearer ${await tokenOf('8')}`;
    expect(await authenticate(request('GET', { cookie, authorization }))).toEqual({ sub: 8, org: 1, role: 'admin' });
    const headerOnly = bearerJwt({ secret: SECRET, principal: () => ({ sub: 1, org: 1, role: 'admin' }) });
    expect(await headerOnly(request('GET', { cookie }))).toBeUndefined();
    expect(await authenticate(request('GET', { cookie: 'sessions=x; session=' }))).toBeUndefined();
  });

  it('answers 401 for a cookie token that is not good', async () => {
    const refused = await Promise.resolve(authenticate(request('GET', { cookie: 'session=not-a-token' }))).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(401);
  });
});

describe('bearerJwt({ secret })', () => {
  const signed = (alg: string, secret: string | Uint8Array = SECRET, sub = '5') =>
    new SignJWT({})
      .setProtectedHeader({ alg })
      .setSubject(sub)
      .sign(typeof secret === 'string' ? new TextEncoder().encode(secret) : secret);
  const statusOf = (outcome: Promise<unknown>) =>
    outcome.then(
      () => 200,
      (error: HttpError) => error.status,
    );
  const bearer = (token: string) => request('GET', { authorization: `Bearer ${token}` });

  it('verifies each HMAC algorithm it accepts, again and again, and refuses the others and other secrets', async () => {
    const all = bearerJwt({
      secret: new TextEncoder().encode(SECRET),
      algorithms: ['HS256', 'HS384', 'HS512'],
      principal: (claims) => ({ sub: Number(claims.sub), org: 1, role: 'admin' }),
    });
    for (const alg of ['HS256', 'HS384', 'HS512', 'HS512', 'HS256'])
      expect(await all(bearer(await signed(alg, SECRET, alg.slice(2))))).toMatchObject({ sub: Number(alg.slice(2)) });
    expect(await statusOf(Promise.resolve(all(bearer(await signed('HS384', 'another-secret-of-enough-length')))))).toBe(
      401,
    );
    // The default accepts HS256 only.
    expect(await statusOf(Promise.resolve(authenticate(bearer(await signed('HS512')))))).toBe(401);
    expect(await statusOf(Promise.resolve(authenticate(bearer(await signed('HS256')))))).toBe(200);
    // An unsigned token (alg none) is refused.
    const [, payload] = (await signed('HS256')).split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    expect(await statusOf(Promise.resolve(all(bearer(none))))).toBe(401);
  });
});
