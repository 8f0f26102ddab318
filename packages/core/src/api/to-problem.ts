import { storeErrorToHttp } from '../errors/store-error.js';
import type { NeutralResponse } from '../http/neutral.js';
import { type ErrorLogger, toProblemResponse } from '../http/problem.js';
import { unknownPath } from './route.js';

/** Turns anything an action threw into the problem+json answer, store errors included. */
export function problemFor(
  error: unknown,
  log: ErrorLogger,
  request: { method: string; path: string },
): NeutralResponse {
  return toProblemResponse(storeErrorToHttp(error), log, request);
}

/**
 * The 404 problem of a request outside every mounted resource (another base path, or the mount
 * path spelled differently), for adapters that answer it before the API sees the request.
 *
 * @example
 * ```ts
 * if (!path.startsWith(`${basePath}/`)) return writeResponse(res, unknownPathResponse(path));
 * ```
 */
export function unknownPathResponse(path: string): NeutralResponse {
  return toProblemResponse(unknownPath(path));
}
