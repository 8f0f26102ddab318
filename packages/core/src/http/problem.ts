import { statusTitle } from '../contract/problems.js';
import { type FieldErrors, HttpError } from '../errors/http-error.js';
import type { NeutralResponse } from './neutral.js';

/** An RFC 9457 problem details object, as sent to clients. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** Machine-readable code (extension member); stable across releases. */
  code: string;
  /** Per-field validation messages (extension member, 422 only). */
  errors?: FieldErrors;
}

/**
 * Receives what the server should log: errors that become a 500 or a 503 (server faults, worth
 * their stack), and client errors caused by something underneath (a constraint the database
 * enforced, a body the client stopped sending: worth one line). `status` tells them apart.
 */
export type ErrorLogger = (error: unknown, context: { method: string; path: string; status: number }) => void;

/**
 * Turns anything thrown while handling a request into an `application/problem+json` response.
 * An {@link HttpError} keeps its status, detail and field errors; anything else becomes a generic
 * 500 whose details go to `log` only, never to the client.
 *
 * @example
 * ```ts
 * const response = toProblemResponse(new NotFoundError());
 * // { status: 404, headers: { 'Content-Type': 'application/problem+json', 'X-Content-Type-Options': 'nosniff' }, body: ... }
 * ```
 */
export function toProblemResponse(
  error: unknown,
  log?: ErrorLogger,
  request: { method: string; path: string } = { method: '?', path: '?' },
): NeutralResponse {
  const known =
    error instanceof HttpError
      ? error
      : new HttpError(500, 'internal_error', {
          detail: 'An unexpected error occurred; it has been logged',
        });
  // Server errors, and client errors caused by something underneath (a constraint the database
  // enforced, a dropped connection), go to the log; the client only ever sees the problem.
  if (log && (known.status >= 500 || (error instanceof Error && error.cause !== undefined))) {
    log(error, { method: request.method, path: request.path, status: known.status });
  }
  const problem: Problem = {
    type: 'about:blank',
    title: statusTitle(known.status),
    status: known.status,
    detail: known.detail,
    code: known.code,
  };
  if (known.errors) problem.errors = known.errors;
  return {
    status: known.status,
    headers: { ...known.headers, 'Content-Type': 'application/problem+json', 'X-Content-Type-Options': 'nosniff' },
    body: JSON.stringify(problem),
  };
}
