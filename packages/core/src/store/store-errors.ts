/**
 * The base of the errors a store throws. Store errors know nothing of HTTP: the API maps them
 * to problems at its edge (503 for {@link StoreUnavailable}, 422 or 409 for
 * {@link ConstraintViolation}).
 *
 * @example
 * ```ts
 * catch (error) { if (error instanceof StoreError) throw error; throw translate(error); }
 * ```
 */
export class StoreError extends Error {
  override name = 'StoreError';
}

/**
 * Thrown by a store when its database cannot be reached (refused connection, timeout, server
 * shutting down). The API answers 503 and logs the cause; the next request tries again.
 *
 * @example
 * ```ts
 * catch (error) { if (isConnectionError(error)) throw new StoreUnavailable(error); throw error; }
 * ```
 */
export class StoreUnavailable extends StoreError {
  override name = 'StoreUnavailable';
  constructor(cause: unknown) {
    super('The data store is unavailable', { cause });
  }
}

/**
 * The kinds of constraint a write can break. `foreign_key`: a value names no record of the
 * referenced collection; `referenced`: a destroyed record is still referred to.
 */
export type ConstraintKind = 'unique' | 'not_null' | 'check' | 'foreign_key' | 'referenced' | 'other';

/**
 * Thrown by a store when a write breaks a constraint. `field` names the offending attribute
 * when known: the API answers 422 for it, else 409. For `referenced`, `referencedBy` names the
 * collection and foreign key still referring to the record (the API answers 409 naming the
 * relation). The driver's error stays the `cause`, for the server log only.
 *
 * @example
 * ```ts
 * throw new ConstraintViolation('unique', 'name', error);
 * throw new ConstraintViolation('referenced', undefined, error, { collection: 'books', field: 'authorId' });
 * ```
 */
export class ConstraintViolation extends StoreError {
  override name = 'ConstraintViolation';
  constructor(
    readonly kind: ConstraintKind,
    readonly field?: string,
    cause?: unknown,
    readonly referencedBy?: { readonly collection: string; readonly field: string },
  ) {
    const on = field ? ` on ${field}` : referencedBy ? ` from ${referencedBy.collection}.${referencedBy.field}` : '';
    super(`The change breaks a ${kind.replace('_', ' ')} constraint${on}`, { cause });
  }
}
