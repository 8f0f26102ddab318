import { type PROBLEM_STATUS, type ProblemCode, statusTitle } from '../contract/problems.js';

/** Per-field validation messages: `{ author: ['is required'] }`. */
export type FieldErrors = Record<string, string[]>;

/** What every HTTP error can be built from. */
export interface HttpErrorOptions {
  /** Human-readable explanation specific to this occurrence (the problem's `detail`). */
  detail?: string;
  /** Extra response headers, e.g. `Allow` for a 405 or `WWW-Authenticate` for a 401. */
  headers?: Record<string, string>;
  /** Per-field messages; sent as the `errors` member (422). */
  errors?: FieldErrors;
  /** The underlying error, kept for server-side logs only; never sent to the client. */
  cause?: unknown;
}

/**
 * The status of a problem code: the library's own for each of its codes (`PROBLEM_STATUS`), any
 * status for a code of yours.
 */
export type StatusOf<C extends string> = C extends ProblemCode ? (typeof PROBLEM_STATUS)[C] : number;

/**
 * The one error class of the library: a status, a code and details. Throw it (or a subclass)
 * from any hook or step and the client receives an RFC 9457 `application/problem+json` body.
 * A code of the library comes with its own status (`new HttpError(404, 'conflict')` does not
 * compile); a code of your own takes any status.
 *
 * @example
 * ```ts
 * throw new HttpError(409, 'conflict', { detail: 'A book with this name already exists' });
 * throw new HttpError(410, 'gone', { detail: 'Archived' }); // a code of your own
 * ```
 */
export interface HttpError extends Error {
  readonly status: number;
  readonly code: ProblemCode | (string & {});
  readonly detail: string;
  readonly headers: Record<string, string>;
  readonly errors?: FieldErrors;
}

/** The constructor of {@link HttpError}: the status is typed from the code. */
export interface HttpErrorConstructor {
  new <C extends string = ProblemCode | (string & {})>(
    status: StatusOf<C>,
    code: C,
    options?: HttpErrorOptions,
  ): HttpError;
  readonly prototype: HttpError;
}

/**
 * The one error class of the library (see the {@link HttpError} interface).
 *
 * @example
 * ```ts
 * throw new HttpError(409, 'conflict', { detail: 'A book with this name already exists' });
 * if (error instanceof HttpError) console.log(error.status, error.code);
 * ```
 */
export const HttpError: HttpErrorConstructor = class HttpError extends Error {
  readonly status: number;
  readonly code: ProblemCode | (string & {});
  readonly detail: string;
  readonly headers: Record<string, string>;
  readonly errors?: FieldErrors;

  constructor(status: number, code: ProblemCode | (string & {}), options: HttpErrorOptions = {}) {
    const detail = options.detail ?? statusTitle(status);
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.headers = options.headers ?? {};
    if (options.errors) this.errors = options.errors;
  }
};

/**
 * 400: the request cannot be understood (bad query parameter, broken JSON...).
 *
 * @example
 * ```ts
 * throw new BadRequestError('filter[year] must be an integer', 'invalid_query');
 * ```
 */
export class BadRequestError extends HttpError {
  constructor(detail: string, code: ProblemCode = 'bad_request', options: HttpErrorOptions = {}) {
    super(400, code, { ...options, detail });
  }
}

/**
 * 401: the caller is not authenticated.
 *
 * @example
 * ```ts
 * if (!ctx.state.user) throw new UnauthorizedError('Sign in first', { 'WWW-Authenticate': 'Bearer' });
 * ```
 */
export class UnauthorizedError extends HttpError {
  constructor(detail = 'Authentication is required', headers?: Record<string, string>) {
    super(401, 'unauthorized', { detail, headers });
  }
}

/**
 * 403: the caller is known but may not do this.
 *
 * @example
 * ```ts
 * throw new ForbiddenError('Only editors may delete books');
 * ```
 */
export class ForbiddenError extends HttpError {
  constructor(detail = 'You may not do this') {
    super(403, 'forbidden', { detail });
  }
}

/**
 * 404: no such record (or path).
 *
 * @example
 * ```ts
 * throw new NotFoundError('book 7 does not exist');
 * ```
 */
export class NotFoundError extends HttpError {
  constructor(detail = 'Not found') {
    super(404, 'not_found', { detail });
  }
}

/**
 * 409: the request conflicts with the stored state (a unique constraint, for example).
 *
 * @example
 * ```ts
 * throw new ConflictError('A book with this name already exists');
 * ```
 */
export class ConflictError extends HttpError {
  constructor(detail = 'The request conflicts with the current state of the resource') {
    super(409, 'conflict', { detail });
  }
}

/**
 * 422: the body is well-formed JSON but its fields are not acceptable.
 *
 * @example
 * ```ts
 * throw new ValidationError({ author: ['is required'] });
 * ```
 */
export class ValidationError extends HttpError {
  declare readonly errors: FieldErrors;
  constructor(errors: FieldErrors, detail?: string) {
    const fields = Object.keys(errors);
    super(422, 'validation_failed', {
      errors,
      detail:
        detail ??
        `The request body has ${fields.length === 1 ? 'an invalid field' : 'invalid fields'}: ${fields.join(', ')}`,
    });
  }
}

/**
 * 503: the store cannot be reached right now; the client may retry.
 *
 * @example
 * ```ts
 * throw new ServiceUnavailableError(undefined, err); // keeps `err` for the server log only
 * ```
 */
export class ServiceUnavailableError extends HttpError {
  constructor(detail = 'The data store is unavailable, try again later', cause?: unknown) {
    super(503, 'service_unavailable', { detail, cause, headers: { 'Retry-After': '1' } });
  }
}
