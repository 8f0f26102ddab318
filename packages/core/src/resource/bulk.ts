import { echo } from '../errors/echo.js';
import { BadRequestError, ValidationError } from '../errors/http-error.js';
import { checkIfMatch } from '../http/conditional.js';
import type { NeutralRequest } from '../http/neutral.js';
import { readJsonBody } from '../http/read-body.js';
import { parseId } from '../schema/convert.js';
import type { Id } from '../schema/types.js';
import { createRecords } from './bulk-create.js';
import { Answered, answeredEntry, entryObject, Failures, pointer, recordRequest, runRecord } from './bulk-records.js';
import { TakenInBatch, takenRecords } from './bulk-unique.js';
import type { HooksByAction } from './compile.js';
import type { Context } from './context.js';
import { admit } from './guard.js';
import { runAction } from './lifecycle.js';
import { upsertKey, upsertRecords } from './upsert.js';

// Bulk writes (CONTRACT part 4): `POST` with a list, `PATCH` and `DELETE` on the collection; all
// or none, in one transaction, each record through the lifecycle of a single write of it. Upserts
// (`POST ?upsert=<field>`) come this way too, with one record or a list.

/**
 * Whether a request may write several records or upsert: a bulk update or destroy, or a create of
 * a resource that takes lists or upserts (or that names `upsert`, to be told it takes none).
 *
 * @example
 * ```ts
 * if (takesMany(ctx, request)) await runMany(ctx, hooks, request);
 * ```
 */
export function takesMany(ctx: Context, request: NeutralRequest): boolean {
  if (ctx.bulk) return true;
  const { compiled } = ctx;
  return (
    ctx.action === 'create' &&
    (compiled.bulk !== undefined || compiled.upsert.size > 0 || request.rawQuery.includes('upsert'))
  );
}

/**
 * Runs a bulk write, an upsert, or (for a `POST` of one record to such a resource) the single
 * create: the records in one transaction, answered after the commit, in the order sent.
 *
 * @example
 * ```ts
 * await runMany(ctx, hooks, request); // ctx.result = { issues: [...] }
 * ```
 */
export async function runMany(ctx: Context, hooks: HooksByAction, request: NeutralRequest): Promise<void> {
  admit(ctx); // 401 and 403 of the batch's action before its body is read
  if (ctx.action === 'destroy') {
    const ids = destroyedIds(ctx);
    await allOrNone(ctx, () => destroyRecords(ctx, hooks, request, ids));
    ctx.status = 204;
    return;
  }
  checkIfMatch(request.headers['if-match'], undefined);
  const body = await readJsonBody(request, ctx.compiled.bodyLimit, ctx.compiled.limits.jsonDepth);
  const upsert = ctx.action === 'create' ? upsertKey(ctx) : undefined;
  const list = listOf(ctx, body);
  if (list === undefined && upsert === undefined) return runAction(ctx, hooks, { ...request, parsedBody: body });
  const entries = list ?? [(body as Record<string, unknown>)[ctx.resource.name]];
  const records = await allOrNone(ctx, () => {
    if (upsert !== undefined) return upsertRecords(ctx, hooks, request, entries, upsert, list === undefined);
    if (ctx.action === 'create') return createRecords(ctx, hooks, request, entries);
    return updateRecords(ctx, hooks, request, entries);
  });
  if (ctx.responded) return;
  ctx.result = list ? { [ctx.resource.plural]: records } : { [ctx.resource.name]: records[0] };
}

/**
 * Runs `work` in one transaction; a hook's error answer for one record becomes the batch's. The
 * store may run it again after a conflict: each run makes its records' contexts anew, and forgets
 * what the last one found of their foreign keys (rolled back with it).
 */
async function allOrNone(ctx: Context, work: () => Promise<unknown[]>): Promise<unknown[]> {
  try {
    return await ctx.transaction(() => {
      ctx.references = undefined;
      return work();
    });
  } catch (error) {
    if (error instanceof TakenInBatch) throw await takenRecords(ctx, error);
    if (!(error instanceof Answered)) throw error;
    const { record } = error;
    Object.assign(ctx.headers, record.headers);
    ctx.respond(record.result, record.status);
    return [];
  }
}

/**
 * The list of a bulk body (`{"issues": [...]}`, its only member), checked: 1 to `bulk.max`
 * entries. `undefined` for the body of one record of a `POST`; any other body of a bulk `PATCH`
 * is a 422 naming `/issues`.
 */
function listOf(ctx: Context, body: unknown): unknown[] | undefined {
  const { plural, name } = ctx.resource;
  const max = ctx.compiled.bulk?.max;
  const members = body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
  const isList = members.length === 1 && members[0] === plural && max !== undefined;
  if (!isList) {
    if (ctx.action === 'create') return undefined;
    throw new ValidationError({ [`/${plural}`]: [`is required: the body is {"${plural}": [...]}`] });
  }
  const list = (body as Record<string, unknown>)[plural];
  const at = `/${plural}`;
  if (!Array.isArray(list))
    throw new ValidationError({ [at]: [`must be a list of ${plural} (each as {"${name}": ...} holds one)`] });
  if (list.length === 0) throw new ValidationError({ [at]: ['must hold at least one record'] });
  if (list.length > max) throw new ValidationError({ [at]: [`must hold at most ${max} records (got ${list.length})`] });
  return list;
}

/**
 * Updates each entry's record (`{"id": 5, "_etag": "…", ...fields}`) through the update's
 * lifecycle. Records are written in ascending id order, so that concurrent batches over the same
 * records take their row locks in one order (and never deadlock on each other).
 */
async function updateRecords(
  ctx: Context,
  hooks: HooksByAction,
  request: NeutralRequest,
  entries: readonly unknown[],
): Promise<unknown[]> {
  const failures = new Failures(ctx);
  const targets: { index: number; id: Id; fields: Record<string, unknown>; etag: string | undefined }[] = [];
  const seen = new Map<Id, number>();
  entries.forEach((entry, index) => {
    const object = entryObject(ctx, entry, index, failures);
    if (!object) return;
    const { id: rawId, _etag: etag, ...fields } = object;
    const id = idOf(ctx, rawId);
    if (rawId === undefined || rawId === null) failures.errors[pointer(ctx, index, 'id')] = ['is required'];
    else if (id === undefined) failures.errors[pointer(ctx, index, 'id')] = ['does not exist'];
    else if (seen.has(id))
      failures.errors[pointer(ctx, index, 'id')] = [`repeats ${pointer(ctx, seen.get(id) as number, 'id')}`];
    if (etag !== undefined && typeof etag !== 'string')
      failures.errors[pointer(ctx, index, '_etag')] = ['must be an entity tag (a string)'];
    if (id === undefined || seen.has(id)) return;
    seen.set(id, index);
    targets.push({ index, id, fields, etag: etag as string | undefined });
  });
  failures.throwIfAny();
  targets.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const answers: unknown[] = [];
  const { name, path } = ctx.resource;
  for (const { index, id, fields, etag } of targets) {
    const sent = recordRequest(request, 'PATCH', `/${path}/${String(id)}`, { [name]: fields }, etag);
    const record = ctx.forRecord('update', id, sent);
    try {
      answers[index] = await runRecord(record, hooks, sent);
    } catch (error) {
      failures.add(index, error);
    }
  }
  failures.throwIfAny();
  return answers;
}

/** The id of an entry as the JSON body gives it (a number, or a uuid string), if it can exist. */
function idOf(ctx: Context, raw: unknown): Id | undefined {
  if (typeof raw !== 'number' && typeof raw !== 'string') return undefined;
  const type = ctx.compiled.schema.attributes[0]?.type === 'uuid' ? 'uuid' : 'integer';
  if (type === 'integer' && typeof raw !== 'number') return undefined;
  return parseId(String(raw), type);
}

/**
 * The ids of a bulk destroy: `filter[id][]` 1 to `bulk.max` times, and no other parameter (400);
 * an id that cannot exist is a 404 naming it, as one that is not visible is.
 */
function destroyedIds(ctx: Context): { id: Id; raw: string }[] {
  const max = ctx.compiled.bulk?.max ?? 0;
  const ids: { id: Id; raw: string }[] = [];
  const { rawQuery } = ctx.request;
  const usage = `a bulk destroy takes filter[id][]=<id>, 1 to ${max} times, and no other parameter`;
  for (const pair of rawQuery === '' ? [] : rawQuery.split('&')) {
    const [key = '', value = ''] = pair.split('=', 2).map((part) => safeDecode(part.replaceAll('+', ' ')));
    if (key !== 'filter[id][]') throw new BadRequestError(`${echo(key, 40)}: ${usage}`, 'invalid_query');
    if (ids.some((seen) => seen.raw === value))
      throw new BadRequestError(`filter[id][]: ${echo(value, 40)} is given twice`, 'invalid_query');
    ids.push({
      id: parseId(value, ctx.compiled.schema.attributes[0]?.type === 'uuid' ? 'uuid' : 'integer') as Id,
      raw: value,
    });
  }
  if (ids.length === 0 || ids.length > max) throw new BadRequestError(usage, 'invalid_query');
  return ids;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Destroys each record through the destroy's lifecycle, in ascending id order; the first one missing is the batch's 404. */
async function destroyRecords(
  ctx: Context,
  hooks: HooksByAction,
  request: NeutralRequest,
  ids: readonly { id: Id; raw: string }[],
): Promise<unknown[]> {
  const sorted = [...ids].sort((a, b) =>
    a.id === undefined ? -1 : b.id === undefined ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
  for (const { id, raw } of sorted) {
    const sent = recordRequest(request, 'DELETE', `/${ctx.resource.path}/${raw}`, undefined);
    const record = ctx.forRecord('destroy', id, sent);
    await runAction(record, hooks, sent);
    if (record.responded) answeredEntry(record);
  }
  return [];
}
