import type { JWTPayload } from 'jose';
import { ROLES, type Role } from './models.js';

/**
 * Who a request of the tracker comes from: the claims of its bearer token, checked. `sub` is the
 * user's id, `org` the organization's (the tenant every record belongs to).
 */
export type TrackerPrincipal = { sub: number; org: number; role: 'viewer' | 'member' | 'admin' };

// Every rule, hook and context of the application sees the principal with this type. (The
// repository type-checks every example and docs/ in one program, where a declaration merged into
// Register must be the same type wherever it is made: docs/examples/access.ts makes this one.)
declare module '@resourcery/core' {
  interface Register {
    principal: { sub: number; org: number; role: 'viewer' | 'member' | 'admin' };
  }
}

/** The secret tokens are signed with when `TRACKER_JWT_SECRET` is unset: for trying the example only. */
export const DEVELOPMENT_SECRET = 'tracker-dev-secret';

const DECIMAL = /^[1-9][0-9]*$/;

/** A positive integer claim: a JSON number or, where `strings` allows, a plain decimal string. */
function positiveInteger(value: unknown, strings: boolean): number | undefined {
  const number = typeof value === 'string' && strings && DECIMAL.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

/**
 * The principal of a verified token's claims, or `undefined` when one is missing or malformed
 * (the request is then a 401): `sub` a positive integer (a number or a decimal string, as JWT
 * libraries write `sub` as a string), `org` a positive integer, `role` one of {@link ROLES}.
 * The tracker trusts the claims: it does not look the user up.
 */
export function trackerPrincipal(claims: JWTPayload): TrackerPrincipal | undefined {
  const sub = positiveInteger(claims.sub, true);
  const org = positiveInteger(claims.org, false);
  const role = claims.role;
  if (sub === undefined || org === undefined || !ROLES.includes(role as Role)) return undefined;
  return { sub, org, role: role as Role };
}
