import { echo } from '../errors/echo.js';
import { HttpError, NotFoundError, ValidationError } from '../errors/http-error.js';
import { checkIfMatch, etagOf, notModified, preconditionFailed, unchangedSince } from '../http/conditional.js';
import type { NeutralRequest } from '../http/neutral.js';
import { readJsonBody } from '../http/read-body.js';
import type { Condition } from '../store/store.js';
import { ConstraintViolation } from '../store/store-errors.js';
import type { Context } from './context.js';
import type { RecordOf } from './context-types.js';
import { eventsStep } from './events.js';
import { checkFieldRules, checkRecordRule, checkReferences, withPresets } from './guard.js';
import { takeIdSets, throwErrors } from './id-sets.js';
import { validateInput } from './input/validate-input.js';
import { DERIVED, indexAnswer, memberView, single } from './render.js';
import { checkRestoreRule, restoreBody } from './restore.js';
import { statsStep } from './stats.js';

// The work of each action between the before and after hooks: its steps, in the order of the
// contract's answers (the body's own 400/413/415, then 404, then 403 on the record or a field,
// then 422), with conditional requests and the write guarded as a compare-and-swap.

type Rec = RecordOf<Record<string, unknown>>;

/** Only the fields an update changes, so that `updatedAt` moves only when something does. */
function changedFields(input: Record<string, unknown>, read: Rec): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(input)) {
    const before = read[field] ?? null;
    const same =
      typeof value === 'object' && value !== null ? JSON.stringify(value) === JSON.stringify(before) : value === before;
    if (!same) changed[field] = value;
  }
  return changed;
}

/** A destroy refused because other records still refer to the record: 409 naming the relation. */
function stillReferred(ctx: Context, error: ConstraintViolation): HttpError {
  const by = error.referencedBy;
  let relation = by ? `${by.collection} (${by.field})` : 'other records';
  for (const linked of ctx.mounted?.self.relations.values() ?? []) {
    if (linked.kind === 'hasMany' && linked.target.schema.name === by?.collection && linked.foreignKey === by.field) {
      relation = linked.name;
    }
  }
  return new HttpError(409, 'conflict', {
    detail: `${ctx.resource.name} ${ctx.id} is still referred to by its ${relation}: destroy or reassign them first`,
    cause: error,
  });
}

function gone(ctx: Context): NotFoundError {
  const id = ctx.id ?? ctx.request.path.slice(ctx.request.path.lastIndexOf('/') + 1);
  return new NotFoundError(`${ctx.resource.name} ${echo(String(id), 30)} does not exist`);
}

async function findOr404(ctx: Context): Promise<Rec> {
  if (ctx.id === undefined) throw gone(ctx);
  const record = await ctx.compiled.steps.find(ctx);
  if (!record) throw gone(ctx);
  ctx.record = record;
  return record;
}

/** Reads the body of a create or update (400, 413, 415 when it cannot be read). */
function readBody(ctx: Context, request: NeutralRequest): Promise<unknown> {
  return readJsonBody(request, ctx.compiled.bodyLimit, ctx.compiled.limits.jsonDepth);
}

/**
 * Validates (422) and prepares the body read; a create gets the values the server sets from
 * the principal. The foreign keys it then sets are checked against what the caller may read.
 */
async function takeInput(ctx: Context, body: unknown): Promise<void> {
  const { compiled } = ctx;
  const inputs = ctx.mounted?.self.inputs ?? compiled;
  const create = ctx.action === 'create';
  // The ids of many-to-many relations are read apart, and their errors join the body's.
  const taken = takeIdSets(ctx, body);
  const values = await validateInput(taken.body, create ? inputs.create : inputs.update).catch((error: unknown) => {
    const more = Object.keys(taken.errors).length > 0;
    if (more && error instanceof ValidationError) throw new ValidationError({ ...error.errors, ...taken.errors });
    throw error;
  });
  throwErrors(taken.errors);
  Object.assign(values, taken.sets);
  ctx.input = create ? withPresets(ctx, values) : values;
  if (compiled.steps.prepared) ctx.input = await compiled.steps.prepare(ctx);
  await checkReferences(ctx, ctx.input);
}

/**
 * With `If-Match`, checks the tag against the record just read (412 when stale) and narrows the
 * conditions to the record's current state, so the write itself fails if another writer changes
 * the record in between. Answers the conditions as they were, to tell "gone" from "changed".
 * Without `If-Match`, writes are not conditional: concurrent updates of different fields all stay.
 */
function guardIfMatch(ctx: Context, read: Rec, request: NeutralRequest): Condition[] {
  const where = ctx.where;
  const header = request.headers['if-match'];
  if (header !== undefined) {
    checkIfMatch(header, etagOf(ctx.keys.etag, read));
    // The ids of many-to-many relations are no column to compare (`updatedAt` moves with them).
    const { idSets } = ctx.compiled;
    const compared =
      idSets.size === 0 ? unchangedSince(read) : unchangedSince(read).filter((c) => !idSets.has(c.field));
    ctx.where = [...where, ...compared];
  }
  return where;
}

/**
 * Whether an update can write without reading the record first: no step of the resource's own
 * may look at it, no `If-Match` is checked against it, and no `updatedAt` compares with it.
 */
function writesBlind(ctx: Context, request: NeutralRequest): boolean {
  return (
    ctx.compiled.steps.writesBlind &&
    request.headers['if-match'] === undefined &&
    ctx.compiled.serverValues.updatedAt === undefined &&
    ctx.rule.length === 0 &&
    ctx.view.noUpdate.size === 0
  );
}

/** Why a write found no record: 412 if it still exists (it changed meanwhile), else 404. */
async function lostRace(ctx: Context, where: Condition[]): Promise<Error> {
  const guarded = ctx.where !== where;
  ctx.where = where;
  if (guarded && (await ctx.compiled.steps.find(ctx))) return preconditionFailed();
  return gone(ctx);
}

/**
 * A create up to its write: the body read, its fields checked against the caller's rules, and
 * validated and prepared into `ctx.input` (a bulk create then writes all its records at once).
 */
export async function prepareCreate(ctx: Context, request: NeutralRequest): Promise<void> {
  checkIfMatch(request.headers['if-match'], undefined);
  const body = await readBody(ctx, request);
  checkFieldRules(ctx, body);
  await takeInput(ctx, body);
}

/** A create after its write: the record answered, with its `Location` and `ETag`. */
export async function answerCreated(ctx: Context, request: NeutralRequest, record: Rec): Promise<void> {
  ctx.record = record;
  ctx.headers.Location = `${request.basePath}/${ctx.resource.path}/${record.id}`;
  ctx.headers.ETag = etagOf(ctx.keys.etag, record);
  ctx.result = await single(ctx, record);
}

/** The work of each action between the before and after hooks. */
export const ACTION_STEPS: Record<Context['action'], (ctx: Context, request: NeutralRequest) => Promise<void>> = {
  async index(ctx, request) {
    // A malformed query is a 400 before any precondition.
    void ctx.query;
    checkIfMatch(request.headers['if-match'], undefined);
    await indexAnswer(ctx, request, await ctx.compiled.steps.list(ctx));
  },
  stats: statsStep,
  events: eventsStep,
  async show(ctx, request) {
    const view = memberView(ctx);
    const record = await findOr404(ctx);
    if (view.include.length > 0 || view.fields !== undefined) {
      // Another representation, with its related records or fewer fields: its weak tag covers
      // the answer as sent, so it is computed once the after hooks are done (`tagAnswer`), and
      // If-Match (a strong comparison) matches only `*` (RFC 9110 §13.1.1).
      checkIfMatch(request.headers['if-match'], DERIVED);
      ctx.result = await single(ctx, record, view);
      return;
    }
    const etag = etagOf(ctx.keys.etag, record);
    // RFC 9110 §13.2.2: If-Match first (412), then If-None-Match (304).
    checkIfMatch(request.headers['if-match'], etag);
    ctx.headers.ETag = etag;
    if (notModified(request.headers['if-none-match'], etag)) {
      ctx.status = 304;
      return;
    }
    ctx.result = await single(ctx, record);
  },
  async create(ctx, request) {
    await prepareCreate(ctx, request);
    await answerCreated(ctx, request, await ctx.compiled.steps.create(ctx));
  },
  async update(ctx, request) {
    let record: Rec | undefined;
    let where = ctx.where;
    let body = await readBody(ctx, request);
    // `?archived=true` with the archive field `null`: a restore, which reads the record first.
    const restored = restoreBody(ctx, body);
    if (!restored && writesBlind(ctx, request)) {
      // The happy path in one statement: the write itself tells whether the record exists, and
      // a bad body looks the record up only to answer 404 first when it is missing.
      await takeInput(ctx, body).catch(async (error: unknown) => {
        await findOr404(ctx);
        throw error;
      });
      record = ctx.id === undefined ? undefined : await ctx.compiled.steps.update(ctx);
    } else {
      const read = await findOr404(ctx);
      await checkRecordRule(ctx, read);
      if (restored) await checkRestoreRule(ctx, read);
      where = guardIfMatch(ctx, read, request);
      body = restored ?? body;
      checkFieldRules(ctx, body, read);
      await takeInput(ctx, body);
      if (restored) ctx.input = { ...ctx.input, [ctx.compiled.archive as string]: null };
      if (ctx.compiled.serverValues.updatedAt) ctx.input = changedFields(ctx.input as Record<string, unknown>, read);
      const empty = Object.keys(ctx.input as object).length === 0;
      record = empty ? read : await ctx.compiled.steps.update(ctx);
    }
    if (!record) throw await lostRace(ctx, where);
    ctx.record = record;
    ctx.headers.ETag = etagOf(ctx.keys.etag, record);
    ctx.result = await single(ctx, record);
  },
  async destroy(ctx, request) {
    const read = await findOr404(ctx);
    await checkRecordRule(ctx, read);
    const where = guardIfMatch(ctx, read, request);
    let destroyed: boolean;
    try {
      destroyed = await ctx.compiled.steps.destroy(ctx);
    } catch (error) {
      if (error instanceof ConstraintViolation && error.kind === 'referenced') throw stillReferred(ctx, error);
      throw error;
    }
    if (!destroyed) throw await lostRace(ctx, where);
    ctx.status = 204;
    ctx.result = undefined;
  },
};
