import { ConflictError, HttpError, ServiceUnavailableError, ValidationError } from '../errors/http-error.js';

/**
 * Thrown by a store when its database cannot be reached (refused connection, timeout, server
 * shutting down). The API answers 503 and logs the cause; the next request tries again.
 *
 * @example
 * ```ts
 * catch (error) { if (isConnectionError(error)) throw new StoreUnavailable(error); throw error; }
 * ```
 */
export class StoreUnavailable extends Error {
  constructor(cause: unknown) {
    super('The data store is unavailable', { cause });
    this.name = 'StoreUnavailable';
  }

  toHttpError(): HttpError {
    return new ServiceUnavailableError(undefined, this.cause);
  }
}

/**
 * Thrown by a store when a write breaks a database constraint. `field` names the offending
 * attribute when known: the API answers 422 for it, else 409. The driver's message stays in
 * the server log.
 *
 * @example
 * ```ts
 * throw new ConstraintViolation('unique', 'name', error);
 * ```
 */
export class ConstraintViolation extends HttpError {
  constructor(kind: 'unique' | 'not_null' | 'check' | 'foreign_key' | 'other', field?: string, cause?: unknown) {
    const message = kind === 'unique' ? 'is already taken' : kind === 'not_null' ? 'is required' : 'is not accepted';
    const inner = field
      ? new ValidationError({ [field]: [message] })
      : new ConflictError(`The change breaks a ${kind.replace('_', ' ')} constraint`);
    super(inner.status, inner.code, { detail: inner.detail, errors: inner.errors, cause });
    this.name = 'ConstraintViolation';
  }
}
