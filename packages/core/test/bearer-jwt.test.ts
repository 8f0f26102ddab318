import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/errors/http-error.js';
import { bearerJwt } from '../src/http/bearer-jwt.js';
import type { NeutralRequest } from '../src/http/neutral.js';

// The `cookie` option of bearerJwt: the token read from a cookie when a read has no
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
