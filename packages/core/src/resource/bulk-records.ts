import { type FieldErrors, HttpError, NotFoundError, ValidationError } from '../errors/http-error.js';
import { storeErrorToHttp } from '../errors/store-error.js';
import type { NeutralRequest } from '../http/neutral.js';
import type { HooksByAction } from './compile.js';
import type { Context } from './context.js';
import { runAction } from './lifecycle.js';

// The records of a bulk write (CONTRACT part 4, "Bulk writes"): each one's own request, as a
// single write of it would be, and the failures of all of them, keyed by JSON Pointer into the
// body (`/issues/2/title`).

/** A hook answered for one record (`ctx.respond`) with an error status: that is the batch's answer. */
export class Answered extends Error {
  constructor(readonly record: Context) {
    super('answered by a hook');
  }
}

/**
 * The request of one record of a bulk write: the batch's, with the record's path and body (already
 * parsed) and its own `If-Match` (the entry's `_etag`).
 *
 * @example
 * ```ts
 * recordRequest(request, 'PATCH', '/issues/5', { issue: { status: 'done' } }, '"x1"');
 * ```
 */
export function recordRequest(
  batch: NeutralRequest,
  method: string,
  path: string,
  body: unknown,
  ifMatch?: string,
): NeutralRequest {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(batch.headers)) {
    if (!BODY_HEADERS.has(name)) headers[name] = value;
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (ifMatch !== undefined) headers['if-match'] = ifMatch;
  return { method, path, basePath: batch.basePath, rawQuery: '', headers, parsedBody: body, native: batch.native };
}

/** Headers of the batch's body and preconditions, which no record's request inherits. */
const BODY_HEADERS = new Set(['content-length', 'content-encoding', 'content-type', 'if-match', 'if-none-match']);

/** `/issues/2` and, with a field, `/issues/2/title` (JSON Pointer, RFC 6901). */
export function pointer(ctx: Context, index: number, field?: string): string {
  const at = `/${escapeToken(ctx.resource.plural)}/${index}`;
  return field === undefined ? at : `${at}/${escapeToken(field)}`;
}

function escapeToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * The failures of a batch's records. A 422 (and, for an update, a record that does not exist)
 * is kept and the next record goes on, so that one answer lists every invalid record; any other
 * failure is the batch's answer at once, naming the record.
 */
export class Failures {
  readonly errors: FieldErrors = {};

  /** With `single`, the body held one record (an upsert of `{"label": …}`): its errors are a single write's. */
  constructor(
    private readonly ctx: Context,
    private readonly single = false,
  ) {}

  /** Keeps a 422 of record `index`, or throws what any other failure means for the batch. */
  add(index: number, thrown: unknown): void {
    if (thrown instanceof Answered || this.single) throw thrown;
    const error = storeErrorToHttp(thrown);
    if (error instanceof ValidationError || (error instanceof HttpError && error.status === 422 && error.errors)) {
      for (const [field, messages] of Object.entries(error.errors ?? {})) {
        this.errors[pointer(this.ctx, index, field)] = messages;
      }
      return;
    }
    if (error instanceof NotFoundError && this.ctx.action === 'update') {
      this.errors[pointer(this.ctx, index, 'id')] = ['does not exist'];
      return;
    }
    throw atRecord(this.ctx, index, error);
  }

  /** Throws the 422 of every record kept, if any. */
  throwIfAny(): void {
    if (Object.keys(this.errors).length > 0) throw new ValidationError(this.errors);
  }
}

/**
 * A failure of record `index` as the batch answers it: its detail and its field errors name the
 * record (`403 /issues/3/priority`). Errors that are not HTTP errors (a 500) stay as they are.
 *
 * @example
 * ```ts
 * throw atRecord(ctx, 3, new HttpError(403, 'forbidden', { errors: { priority: ['may not be changed by you'] } }));
 * ```
 */
export function atRecord(ctx: Context, index: number, thrown: unknown): unknown {
  const error = storeErrorToHttp(thrown);
  if (!(error instanceof HttpError)) return error;
  let errors: FieldErrors | undefined;
  if (error.errors) {
    errors = {};
    for (const [field, messages] of Object.entries(error.errors)) errors[pointer(ctx, index, field)] = messages;
  }
  return new HttpError(error.status, error.code, {
    detail: `${pointer(ctx, index)}: ${error.detail}`,
    headers: error.headers,
    ...(errors ? { errors } : {}),
    // What a store error meant stays the cause (it is logged); an HTTP error of the record has none.
    ...(error.cause === undefined ? {} : { cause: error.cause }),
  });
}

/**
 * Runs one record of a batch through the whole lifecycle of a single write of it, and answers
 * its entry in the batch's answer.
 *
 * @example
 * ```ts
 * answers[index] = await runRecord(ctx.forRecord('update', 5, sent), hooks, sent);
 * ```
 */
export async function runRecord(record: Context, hooks: HooksByAction, request: NeutralRequest): Promise<unknown> {
  await runAction(record, hooks, request);
  return record.responded ? answeredEntry(record) : (record.result as Record<string, unknown>)[record.resource.name];
}

/**
 * The answer of a record whose hook answered (`ctx.respond`): an error status ends the batch
 * (nothing is written), another gives the record's entry in the batch's answer.
 */
export function answeredEntry(record: Context): unknown {
  if (record.status >= 400) throw new Answered(record);
  const result = record.result as Record<string, unknown> | undefined;
  return result && typeof result === 'object' && record.resource.name in result ? result[record.resource.name] : result;
}

/**
 * An entry of a list as an object, else `undefined` with the 422 of its index kept.
 *
 * @example
 * ```ts
 * entryObject(ctx, 'x', 2, failures); // undefined; failures.errors['/issues/2'] = ['must be an object …']
 * ```
 */
export function entryObject(
  ctx: Context,
  entry: unknown,
  index: number,
  failures: Failures,
): Record<string, unknown> | undefined {
  if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) return entry as Record<string, unknown>;
  failures.errors[pointer(ctx, index)] = [`must be an object holding the fields of one ${ctx.resource.name}`];
  return undefined;
}
