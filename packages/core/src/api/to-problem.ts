import { HttpError } from '../errors/http-error.js';
import { storeErrorToHttp } from '../errors/store-error.js';
import type { NeutralResponse } from '../http/neutral.js';
import { type ErrorLogger, toProblemResponse } from '../http/problem.js';
import { unknownPath } from './route.js';

/** Browsers must not guess another type than the one declared. */
export function withNosniff(response: NeutralResponse): NeutralResponse {
  response.headers['X-Content-Type-Options'] = 'nosniff';
  return response;
}

/**
 * What a request whose answer threw gets, logged or not: store errors become HTTP errors; with
 * `rejectErrors` the error is thrown again (the adapter's host handles it), else it is the
 * problem+json answer. `seen` learns the status and the error either way (the log line, the span).
 */
export function failedAnswer(
  thrown: unknown,
  rejectErrors: boolean,
  log: ErrorLogger,
  request: { method: string; path: string },
  seen?: (response: NeutralResponse, error: unknown) => void,
): NeutralResponse {
  const error = storeErrorToHttp(thrown);
  if (rejectErrors) {
    seen?.({ status: error instanceof HttpError ? error.status : 500, headers: {} }, error);
    throw error;
  }
  const response = toProblemResponse(error, log, request);
  seen?.(response, error);
  return withNosniff(response);
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
