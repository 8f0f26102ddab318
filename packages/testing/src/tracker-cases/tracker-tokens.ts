import { SignJWT } from 'jose';
import { HttpClient, type Reply, type SendOptions } from '../http-client.js';

// Bearer tokens as CONTRACT part 4 describes them (HS256 JWTs with `sub`, `org`, `role` and an
// optional `exp`), minted by the tests with `jose`, and a client that sends one with every request.

/** The tracker's secret when `TRACKER_JWT_SECRET` is unset. */
export const DEVELOPMENT_SECRET = 'tracker-dev-secret';

/** A role of the tracker's tokens. */
export type Role = 'viewer' | 'member' | 'admin';

/** The claims of a well-formed token. */
export interface Claims {
  readonly sub: number | string;
  readonly org: number;
  readonly role: Role;
}

/** How {@link mintToken} signs: the algorithm (HS256 by default) and the secret. */
export interface MintOptions {
  readonly alg?: 'HS256' | 'HS384' | 'HS512';
  readonly secret?: string;
}

/**
 * A JWT of exactly these claims (whatever they hold: tests mint malformed ones too), signed
 * with the tracker's secret and HS256 unless `options` says otherwise.
 */
export function mintToken(claims: Readonly<Record<string, unknown>>, options: MintOptions & { secret: string }) {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(options.secret));
}

const base64url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** An unsigned token (`alg: none`): never accepted. */
export function unsignedToken(claims: Readonly<Record<string, unknown>>): string {
  return `${base64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}.`;
}

/** A token whose claims were replaced after signing (the signature is the original one's). */
export function tamperedToken(token: string, claims: Readonly<Record<string, unknown>>): string {
  const [header, , signature] = token.split('.');
  return `${header}.${base64url(JSON.stringify(claims))}.${signature}`;
}

/** Seconds since the epoch, as `exp` counts them. */
export const now = () => Math.floor(Date.now() / 1000);

/**
 * A client of the tracker that sends `Authorization` (a whole header value) with every request,
 * or none; every helper of {@link HttpClient} and the library fixtures works with it.
 */
export class Caller extends HttpClient {
  constructor(
    baseUrl: string,
    readonly authorization: string | undefined,
    /** The claims of its token, when it is a well-formed one. */
    readonly claims?: Claims,
  ) {
    super(baseUrl);
  }

  override send(method: string, path: string, options: SendOptions = {}): Promise<Reply> {
    if (this.authorization === undefined) return super.send(method, path, options);
    return super.send(method, path, { ...options, headers: { authorization: this.authorization, ...options.headers } });
  }

  /** The same server, asked with another `Authorization` header value (or none). */
  withAuthorization(authorization: string | undefined): Caller {
    return new Caller(this.baseUrl, authorization);
  }
}

/** A caller holding a valid token of these claims (with `exp` an hour ahead when `expires`). */
export async function callerOf(api: HttpClient, claims: Claims, secret: string, expires = true): Promise<Caller> {
  const token = await mintToken({ ...claims, ...(expires ? { exp: now() + 3600 } : {}) }, { secret });
  return new Caller(api.baseUrl, `Bearer ${token}`, claims);
}

/** A caller without any token. */
export function anonymous(api: HttpClient): Caller {
  return new Caller(api.baseUrl, undefined);
}
