import { type ActionName, type ActionTarget, actionFor, allowedMethods } from '../contract/actions.js';
import { echo } from '../errors/echo.js';
import { HttpError, NotFoundError } from '../errors/http-error.js';
import type { NeutralRequest } from '../http/neutral.js';
import { parseId } from '../schema/convert.js';
import type { Id } from '../schema/types.js';

/**
 * `/<path>` or `/<path>/<id>`, spelled exactly: case-sensitive, no trailing slash, no empty
 * segment. `/books/`, `/books/5/` and `/BOOKS` are unknown paths (404), so that each record has
 * one URL, the one the OpenAPI document and the `Location` and `Link` headers give.
 */
const ROUTE = /^\/([^/]+)(?:\/([^/]+))?$/;

/** The path segments of the statistics and live events actions (`GET /issues/stats`, `/issues/events`). */
const SEGMENTS: ReadonlySet<string> = new Set(['stats', 'events']);

/** What a resource's routes need to know of it. */
export interface Routable {
  readonly name: string;
  readonly enabled: ReadonlySet<ActionName>;
  /** The `Allow` header of each target, built once from the action table. */
  readonly allow: Readonly<Record<ActionTarget, string>>;
  /** The type of the ids in member paths. */
  readonly idType: 'integer' | 'uuid';
  /** Whether the collection takes bulk updates and destroys (`PATCH` and `DELETE` on `/<path>`). */
  readonly bulk: boolean;
}

/** The `Allow` headers of a resource serving `enabled` actions. */
export function allowHeaders(enabled: ReadonlySet<ActionName>, bulk = false): Record<ActionTarget, string> {
  return {
    collection: allowedMethods(enabled, 'collection', bulk),
    member: allowedMethods(enabled, 'member'),
    stats: allowedMethods(enabled, 'stats'),
    events: allowedMethods(enabled, 'events'),
  };
}

/** A request routed to one resource: the action (or `OPTIONS`) and, for a member, its id. */
export type Route<T> =
  | { readonly target: T; readonly options: string }
  | {
      readonly target: T;
      readonly options?: undefined;
      readonly action: ActionName;
      readonly id: Id | undefined;
      /** A bulk update or destroy (`PATCH` or `DELETE` on the collection). */
      readonly bulk?: true;
    };

/**
 * Routes a request by the action table: `/<path>` and `/<path>/<id>`. Throws 404 for an
 * unknown path, 405 (with `Allow`) for a method not served there; an id that cannot exist is
 * `undefined` (the action answers 404 when it looks the record up).
 */
export function route<T extends Routable>(request: NeutralRequest, targets: ReadonlyMap<string, T>): Route<T> {
  const match = ROUTE.exec(request.path);
  const target = match ? targets.get(match[1] as string) : undefined;
  if (!match || !target) throw unknownPath(request.basePath + request.path);
  const rawId = match[2];
  // `/<path>/stats` (`/events`) is the statistics (live events) of a resource that serves them,
  // before any id: no integer or uuid id can be spelled so. Elsewhere it is an id that cannot exist (404).
  const segment = rawId !== undefined && SEGMENTS.has(rawId) ? (rawId as 'stats' | 'events') : undefined;
  const where: ActionTarget =
    rawId === undefined ? 'collection' : segment && target.enabled.has(segment) ? segment : 'member';
  const allow = target.allow[where];
  if (request.method === 'OPTIONS') return { target, options: allow };
  const action = actionFor(request.method, where, target.bulk);
  if (!action || !target.enabled.has(action)) {
    throw new HttpError(405, 'method_not_allowed', {
      detail: `${echo(request.method, 20)} is not allowed on ${echo(request.basePath + request.path)}; allowed: ${allow}`,
      headers: { Allow: allow },
    });
  }
  if (where === 'collection' && (action === 'update' || action === 'destroy'))
    return { target, action, id: 0, bulk: true };
  if (where !== 'member') return { target, action, id: 0 };
  // An id that cannot exist is answered 404 where a missing record is, after the 401 and 403 of
  // the caller and the body's own 400s.
  return { target, action, id: parseId(rawId as string, target.idType) };
}

/** The 404 of a path no resource has; it says the rule, since a near miss is the likely cause. */
export function unknownPath(path: string): NotFoundError {
  return new NotFoundError(`No resource at ${echo(path)} (paths are case-sensitive and have no trailing slash)`);
}
