import { ConflictError, HttpError, ServiceUnavailableError, ValidationError } from '../errors/http-error.js';
import type { NeutralResponse } from '../http/neutral.js';
import { type ErrorLogger, toProblemResponse } from '../http/problem.js';
import { ConstraintViolation, StoreUnavailable } from '../store/store-errors.js';
import { unknownPath } from './route.js';

const MESSAGES: Record<ConstraintViolation['kind'], string> = {
  unique: 'is already taken',
  not_null: 'is required',
  check: 'is not accepted',
  foreign_key: 'does not exist',
  referenced: 'is still referred to',
  other: 'is not accepted',
};

/**
 * What a store error means to a client, mapped here at the edge only: an unreachable store is
 * 503; a broken constraint is 422 naming the field when the store knows it, else 409. The store
 * error stays the `cause`, for the server log.
 */
export function storeErrorToHttp(error: unknown): unknown {
  if (error instanceof StoreUnavailable) return new ServiceUnavailableError(undefined, error.cause);
  if (!(error instanceof ConstraintViolation)) return error;
  const mapped = error.field
    ? new ValidationError({ [error.field]: [MESSAGES[error.kind]] })
    : new ConflictError(
        error.kind === 'referenced'
          ? `The record is still referred to by ${error.referencedBy?.collection ?? 'other records'}`
          : `The change breaks a ${error.kind.replace('_', ' ')} constraint`,
      );
  return new HttpError(mapped.status, mapped.code, {
    detail: mapped.detail,
    errors: mapped.errors,
    cause: error.cause ?? error,
  });
}

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
