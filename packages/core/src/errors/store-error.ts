import { ConstraintViolation, StoreUnavailable } from '../store/store-errors.js';
import { ConflictError, HttpError, ServiceUnavailableError, ValidationError } from './http-error.js';

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
 *
 * @example
 * ```ts
 * storeErrorToHttp(new ConstraintViolation('unique', 'name')); // HttpError 422 { name: ['is already taken'] }
 * ```
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
