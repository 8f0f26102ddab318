import { BadRequestError, ValidationError } from '../errors/http-error.js';
import type { NeutralRequest } from '../http/neutral.js';
import type { Id, Scalar } from '../schema/types.js';
import { ConstraintViolation } from '../store/store-errors.js';
import { entryObject, Failures, pointer, recordRequest, runRecord } from './bulk-records.js';
import type { HooksByAction } from './compile.js';
import type { Context } from './context.js';
import { admit } from './guard.js';
import { scope } from './lifecycle.js';

// Upserts (`POST /labels?upsert=name`, docs/bulk.md): the record with the sent value of a unique
// key, within the caller's scope, is updated through the update's lifecycle (its role, record and
// field rules, hooks); without one, a record is created through the create's (every required
// field is needed: no half-made row). A create that loses a race to a concurrent upsert of the same
// value becomes the update of the record that won.

/**
 * The key a `POST` upserts by (`upsert=<field>`), if it asks: one of the resource's `upsert`
 * keys, else 400.
 *
 * @example
 * ```ts
 * upsertKey(ctx); // 'name' for POST /labels?upsert=name
 * ```
 */
export function upsertKey(ctx: Context): string | undefined {
  const { rawQuery } = ctx.request;
  if (!rawQuery.includes('upsert')) return undefined;
  const asked = new URLSearchParams(rawQuery).getAll('upsert');
  if (asked.length === 0) return undefined;
  const keys = [...ctx.compiled.upsert];
  const takes = keys.length === 0 ? `${ctx.resource.plural} take no upsert` : `the keys are ${keys.join(', ')}`;
  if (asked.length > 1) throw new BadRequestError(`upsert: give one key (${takes})`, 'invalid_query');
  const key = asked[0] as string;
  if (!ctx.compiled.upsert.has(key) || ctx.view.hidden.has(key)) {
    throw new BadRequestError(`upsert: "${key.slice(0, 40)}" is not a key to upsert by (${takes})`, 'invalid_query');
  }
  return key;
}

/**
 * Upserts each entry by `key`, in the order sent; a value sent twice is a 422 on the second.
 * With `single`, the body held one record, and its errors are keyed as a single write's.
 *
 * @example
 * ```ts
 * await ctx.transaction(() => upsertRecords(ctx, hooks, request, [{ name: 'bug', color: 'red' }], 'name'));
 * ```
 */
export async function upsertRecords(
  ctx: Context,
  hooks: HooksByAction,
  request: NeutralRequest,
  entries: readonly unknown[],
  key: string,
  single = false,
): Promise<unknown[]> {
  const failures = new Failures(ctx, single);
  const answers: unknown[] = [];
  const seen = new Map<unknown, number>();
  for (const [index, entry] of entries.entries()) {
    const fields = entryObject(ctx, entry, index, failures);
    if (!fields && single) {
      throw new ValidationError({ [ctx.resource.name]: [`is required: the body is {"${ctx.resource.name}": {...}}`] });
    }
    if (!fields) continue;
    const value = fields[key];
    if (typeof value !== 'string' && typeof value !== 'number') {
      const error = [value == null ? 'is required to upsert by it' : 'is not accepted'];
      failures.errors[single ? key : pointer(ctx, index, key)] = error;
      continue;
    }
    const first = seen.get(value);
    if (first !== undefined) {
      failures.errors[pointer(ctx, index, key)] = [`repeats ${pointer(ctx, first, key)}`];
      continue;
    }
    seen.set(value, index);
    try {
      answers[index] = await upsertOne(ctx, hooks, request, fields, key, value);
    } catch (error) {
      failures.add(index, error);
    }
  }
  failures.throwIfAny();
  return answers;
}

async function upsertOne(
  ctx: Context,
  hooks: HooksByAction,
  request: NeutralRequest,
  fields: Record<string, unknown>,
  key: string,
  value: Scalar,
): Promise<unknown> {
  const found = await findByKey(ctx, request, key, value);
  if (found !== undefined) return write(ctx, hooks, request, fields, found);
  try {
    // A savepoint: a create that breaks the key's uniqueness undoes only itself.
    return await ctx.transaction(() => write(ctx, hooks, request, fields, undefined));
  } catch (error) {
    if (!(error instanceof ConstraintViolation && error.kind === 'unique' && error.field === key)) throw error;
    const won = await findByKey(ctx, request, key, value);
    if (won === undefined) throw error;
    return write(ctx, hooks, request, fields, won);
  }
}

/** Updates the record `id` with `fields`, or creates one when `id` is `undefined`; answers the record as rendered. */
async function write(
  ctx: Context,
  hooks: HooksByAction,
  request: NeutralRequest,
  fields: Record<string, unknown>,
  id: Id | undefined,
): Promise<unknown> {
  const { name, path } = ctx.resource;
  const body = { [name]: fields };
  const sent =
    id === undefined
      ? recordRequest(request, 'POST', `/${path}`, body)
      : recordRequest(request, 'PATCH', `/${path}/${String(id)}`, body);
  return runRecord(ctx.forRecord(id === undefined ? 'create' : 'update', id ?? 0, sent), hooks, sent);
}

/** The id of the record with `value` in `key` that the caller may see (their read rules, tenancy, scope step), if any. */
async function findByKey(ctx: Context, request: NeutralRequest, key: string, value: Scalar): Promise<Id | undefined> {
  const probe = ctx.forRecord('show', 0, recordRequest(request, 'GET', `/${ctx.resource.path}`, undefined));
  admit(probe);
  await scope(probe);
  const { records } = await ctx.collection.list({
    where: [{ field: key, values: [value] }, ...probe.where],
    order: [{ field: 'id', direction: 'asc' }],
    limit: 1,
    offset: 0,
    count: false,
    select: [],
  });
  return records[0]?.id;
}
