import { createRemoteJWKSet, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import type { Principal } from '../access/principal.js';
import { ServiceUnavailableError, UnauthorizedError } from '../errors/http-error.js';
import type { NeutralRequest } from './neutral.js';

/**
 * The API's authentication (`createApi({ authenticate })`): the principal of a request, or
 * `undefined` when it carries no credentials (an anonymous caller). Throw an
 * `UnauthorizedError` for credentials that are there but not good.
 *
 * @example
 * ```ts
 * const authenticate: Authenticate = (request) => sessions.get(request.headers.cookie ?? '');
 * ```
 */
export type Authenticate = (request: NeutralRequest) => Principal | undefined | Promise<Principal | undefined>;

/** Options of {@link bearerJwt}: a secret (HS256) or a JWKS URL, and how claims become a principal. */
export interface BearerJwtOptions {
  /** The HMAC secret of HS256 (HS384, HS512) tokens. */
  readonly secret?: string | Uint8Array;
  /** The URL of a JSON Web Key Set, for tokens signed with a public-key algorithm (RS256, ES256, EdDSA...). */
  readonly jwks?: string | URL;
  /** The accepted algorithms; default `HS256` with `secret`, `RS256`, `ES256` and `EdDSA` with `jwks`. */
  readonly algorithms?: readonly string[];
  readonly issuer?: string | readonly string[];
  readonly audience?: string | readonly string[];
  /** Tolerated clock skew for `exp` and `nbf`, in seconds. Default 0. */
  readonly clockToleranceSeconds?: number;
  /**
   * The principal of verified claims; answer `undefined` (or throw) when a claim it needs is
   * missing or malformed: the request is then a 401.
   */
  readonly principal: (claims: JWTPayload) => Principal | undefined;
  /**
   * The name of a cookie holding the token, read when a `GET` or `HEAD` has no `Authorization`
   * header: for a browser's `EventSource`, which cannot send headers (live events). Writes still
   * need the header, so a form of another site cannot write with the cookie; set it `HttpOnly;
   * Secure; SameSite=Strict`.
   */
  readonly cookie?: string;
}

const CHALLENGE = 'Bearer';

function unauthorized(detail: string, error?: string): UnauthorizedError {
  const challenge = error ? `${CHALLENGE} error="${error}"` : CHALLENGE;
  return new UnauthorizedError(detail, { 'WWW-Authenticate': challenge });
}

/** Why a token was refused, in words a client can act on (never the token itself). */
function refusal(error: unknown): UnauthorizedError | ServiceUnavailableError {
  if (error instanceof errors.JWTExpired) return unauthorized('The bearer token has expired', 'invalid_token');
  if (error instanceof errors.JWTClaimValidationFailed) {
    return unauthorized(`The bearer token's "${error.claim}" claim is not accepted`, 'invalid_token');
  }
  if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError)) {
    // The key set could not be fetched: the server's trouble, not the client's.
    return new ServiceUnavailableError('The keys that verify bearer tokens cannot be fetched now', error);
  }
  return unauthorized('The bearer token is malformed or not signed by a key this server accepts', 'invalid_token');
}

/**
 * Authentication by a bearer JSON Web Token (RFC 6750, RFC 7519), verified with `jose`: the
 * signature (HS256 with a secret, or the keys of a JWKS URL), `exp` and `nbf`, and the issuer
 * and audience when given. No `Authorization` header (nor, with `cookie`, that cookie on a read)
 * is an anonymous caller; anything else that is not a valid token, or claims `principal` does not
 * accept, is a 401 problem with `WWW-Authenticate: Bearer`.
 *
 * @example
 * ```ts
 * createApi({
 *   resources,
 *   store,
 *   authenticate: bearerJwt({
 *     secret: process.env.JWT_SECRET,
 *     principal: (claims) => ({ sub: Number(claims.sub), role: String(claims.role) }),
 *   }),
 * });
 * ```
 */
export function bearerJwt(options: BearerJwtOptions): Authenticate {
  const { secret, jwks } = options;
  if ((secret === undefined) === (jwks === undefined)) {
    throw new TypeError('bearerJwt: give either `secret` (HS256) or `jwks` (a key set URL)');
  }
  if (typeof secret === 'string' && secret.length === 0) throw new TypeError('bearerJwt: the secret is empty');
  const key: JWTVerifyGetKey =
    secret !== undefined
      ? hmacKeys(typeof secret === 'string' ? new TextEncoder().encode(secret) : secret)
      : createRemoteJWKSet(new URL(String(jwks)));
  const verifyOptions = {
    algorithms: [...(options.algorithms ?? (secret !== undefined ? ['HS256'] : ['RS256', 'ES256', 'EdDSA']))],
    ...(options.issuer !== undefined ? { issuer: options.issuer as string | string[] } : {}),
    ...(options.audience !== undefined ? { audience: options.audience as string | string[] } : {}),
    clockTolerance: options.clockToleranceSeconds ?? 0,
  };
  return async (request) => {
    const header = request.headers.authorization;
    let token: string | undefined;
    if (header === undefined || header === '') {
      const reads = request.method === 'GET' || request.method === 'HEAD';
      token = options.cookie && reads ? cookieValue(request.headers.cookie, options.cookie) : undefined;
      if (token === undefined || token === '') return undefined;
    } else {
      const match = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header);
      if (!match) throw unauthorized('The Authorization header must be "Bearer <token>"', 'invalid_request');
      token = match[1] as string;
    }
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, key, verifyOptions));
    } catch (error) {
      throw refusal(error);
    }
    let principal: Principal | undefined;
    try {
      principal = options.principal(claims);
    } catch {
      principal = undefined;
    }
    if (principal === undefined || principal === null) {
      throw unauthorized('The bearer token lacks a claim this server needs, or one is malformed', 'invalid_token');
    }
    if (typeof claims.exp === 'number') EXPIRY.set(request, claims.exp * 1000);
    return principal;
  };
}

/**
 * The HMAC secret as a key per algorithm of the token's header (HS256, HS384, HS512), imported
 * once each (Web Crypto), where jose imports a secret given as bytes for every token it verifies
 * (about 3% of what the tracker's label filter allocates a request). Another algorithm gets the
 * bytes, which jose refuses as it would.
 */
function hmacKeys(secret: Uint8Array): JWTVerifyGetKey {
  const keys = new Map<string, Promise<CryptoKey>>();
  return ({ alg }) => {
    const bits = /^HS(256|384|512)$/.exec(alg ?? '')?.[1];
    if (!bits || !alg) return secret;
    let key = keys.get(alg);
    if (!key) {
      const algorithm = { name: 'HMAC', hash: `SHA-${bits}` };
      key = crypto.subtle.importKey('raw', secret as Uint8Array<ArrayBuffer>, algorithm, false, ['verify']);
      keys.set(alg, key);
    }
    return key;
  };
}

/** The value of the cookie `name` in a `Cookie` header (percent-decoded), if it is there. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at !== -1 && pair.slice(0, at).trim() === name) {
      const value = pair.slice(at + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return undefined;
}

/** When the token each request authenticated with expires (epoch milliseconds). */
const EXPIRY = new WeakMap<NeutralRequest, number>();

/**
 * When the bearer token `bearerJwt` verified for this request expires (its `exp`, in epoch
 * milliseconds), if it has one: live event streams end then.
 *
 * @example
 * ```ts
 * credentialsExpiry(request); // 1764345600000
 * ```
 */
export function credentialsExpiry(request: NeutralRequest): number | undefined {
  return EXPIRY.get(request);
}
