import { readJsonBody } from '../body/read-body.js';
import { validateInput } from '../body/validate-input.js';
import { NotFoundError } from '../errors/http-error.js';
import { checkIfMatch, etagOf, notModified, preconditionFailed, unchangedSince } from '../http/conditional.js';
import type { NeutralRequest } from '../http/neutral.js';
import { paginationHeaders } from '../http/pagination.js';
import { parseIndexQuery } from '../query/parse-query.js';
import { resolveIndexQuery } from '../query/resolve-query.js';
import type { Condition, Scalar, StoredRecord } from '../store/store.js';
import type { Context } from './context.js';
import type { CompiledResource } from './define-resource.js';
import type { ActionContext, Filter, RecordOf, Steps } from './types.js';

type Ctx = ActionContext;
type Rec = RecordOf<Record<string, unknown>>;

/** The default `scope` step: no restriction (recognized, so that a request does not await it). */
const noScope = (): undefined => undefined;

/** The default `prepare` step: the validated input as is (recognized, so that it is not awaited). */
const keepInput = (ctx: Ctx) => ctx.input as Record<string, unknown>;

/** The default steps; a resource's `steps` option replaces any of them. */
export function defaultSteps(compiled: CompiledResource): Steps {
  return {
    scope: noScope,
    fetch: (ctx) => ctx.store.findOne(ctx.id as number, ctx.scope) as Promise<Rec | undefined>,
    list: (ctx) => {
      const query = ctx.query as NonNullable<Ctx['query']>;
      // Without a count, one record more than the page tells whether there is a next page.
      return ctx.store.findMany({
        where: [...query.where, ...ctx.scope],
        order: query.order,
        limit: query.count ? query.perPage : query.perPage + 1,
        offset: Math.min((query.page - 1) * query.perPage, Number.MAX_SAFE_INTEGER),
        count: query.count,
      }) as Promise<{ records: Rec[]; total?: number }>;
    },
    prepare: keepInput,
    insert: (ctx) => ctx.store.create(ctx.input as Partial<StoredRecord>) as Promise<Rec>,
    modify: (ctx) =>
      ctx.store.update(ctx.id as number, ctx.input as Partial<StoredRecord>, ctx.scope) as Promise<Rec | undefined>,
    remove: (ctx) => ctx.store.destroy(ctx.id as number, ctx.scope),
    render: (record) => {
      const shown: Record<string, unknown> = {};
      for (const field of compiled.shown) shown[field] = record[field] ?? null;
      return shown;
    },
  };
}

function toConditions(filter: Filter<Record<string, unknown>> | undefined): Condition[] {
  if (!filter) return [];
  return Object.entries(filter).map(([field, value]) => ({
    field,
    values: Array.isArray(value) ? (value as Scalar[]) : [value as Scalar],
  }));
}

/**
 * Runs one action through its whole lifecycle on a prepared context: around hooks, before
 * hooks, the scope step, the action's work, render, after hooks. Leaves the outcome in
 * `ctx.status`, `ctx.headers` and `ctx.result`.
 */
export function runAction(
  compiled: CompiledResource,
  steps: Steps,
  ctx: Context,
  request: NeutralRequest,
): Promise<void> {
  const action = ctx.action;
  const around = compiled.hooks.around[action];

  // Without around hooks, no dispatch closures.
  if (around.length === 0) return runCore(compiled, steps, ctx, request);

  const dispatch = async (index: number): Promise<void> => {
    const hook = around[index];
    if (!hook) return runCore(compiled, steps, ctx, request);
    let called = false;
    await hook(ctx, async () => {
      if (called) throw new Error(`An around hook of ${compiled.resource.name}.${action} called next() twice`);
      called = true;
      await dispatch(index + 1);
    });
  };
  return dispatch(0);
}

/** Before hooks, the scope step, the action's work (or its replacement), after hooks. */
async function runCore(compiled: CompiledResource, steps: Steps, ctx: Context, request: NeutralRequest): Promise<void> {
  const { hooks } = compiled;
  const action = ctx.action;
  for (const hook of hooks.before[action]) {
    await hook(ctx);
    if (ctx.responded) return;
  }
  // The default scope adds nothing: not awaited.
  if (steps.scope !== noScope) ctx.scope.push(...toConditions(await steps.scope(ctx)));
  const replacement = compiled.resource.options.actions?.[action];
  if (typeof replacement === 'function') await replacement(ctx);
  else await work(compiled, steps, ctx, request);
  if (ctx.responded) return;
  for (const hook of hooks.after[action]) await hook(ctx);
}

async function fetchOr404(steps: Steps, ctx: Context, compiled: CompiledResource): Promise<Rec> {
  const record = await steps.fetch(ctx);
  if (!record) throw new NotFoundError(`${compiled.resource.name} ${ctx.id} does not exist`);
  ctx.record = record;
  return record;
}

/**
 * With `If-Match`, checks the tag against the record just read (412 when stale) and narrows the
 * scope to the record's current state, so the write itself fails if another writer changes the
 * record in between. Answers the scope as it was, to tell "gone" from "changed" afterwards.
 * Without `If-Match`, writes are not conditional: concurrent updates of different fields all stay.
 */
function guardIfMatch(ctx: Context, read: Rec, request: NeutralRequest): Condition[] {
  const scope = ctx.scope;
  const header = request.headers['if-match'];
  if (header !== undefined) {
    checkIfMatch(header, etagOf(read));
    ctx.scope = [...scope, ...unchangedSince(read)];
  }
  return scope;
}

/** Why a write found no record: 412 if it still exists (it changed meanwhile), else 404. */
async function lostRace(steps: Steps, ctx: Context, compiled: CompiledResource, scope: Condition[]): Promise<Error> {
  const guarded = ctx.scope !== scope;
  ctx.scope = scope;
  if (guarded && (await steps.fetch(ctx))) return preconditionFailed();
  return new NotFoundError(`${compiled.resource.name} ${ctx.id} does not exist`);
}

/** The body of a one-record answer: `{ "<name>": rendered }`. */
function single(compiled: CompiledResource, steps: Steps, record: Rec, ctx: Context): Record<string, unknown> {
  return { [compiled.resource.name]: steps.render(record, ctx) };
}

async function work(compiled: CompiledResource, steps: Steps, ctx: Context, request: NeutralRequest): Promise<void> {
  const { resource } = compiled;
  switch (ctx.action) {
    case 'index': {
      ctx.query = resolveIndexQuery(parseIndexQuery(request.rawQuery, compiled.limits), compiled.query);
      const { perPage, page } = ctx.query;
      const listed = await steps.list(ctx);
      const hasMore = listed.records.length > perPage;
      const records = hasMore ? listed.records.slice(0, perPage) : listed.records;
      ctx.records = records;
      ctx.total = listed.total;
      ctx.result = { [resource.plural]: records.map((record) => steps.render(record, ctx)) };
      Object.assign(ctx.headers, paginationHeaders(request, page, perPage, listed.total, hasMore));
      return;
    }
    case 'show': {
      const record = await fetchOr404(steps, ctx, compiled);
      ctx.headers.ETag = etagOf(record);
      if (notModified(request.headers['if-none-match'], ctx.headers.ETag)) {
        ctx.status = 304;
        return;
      }
      ctx.result = single(compiled, steps, record, ctx);
      return;
    }
    case 'create': {
      ctx.input = await validateInput(
        await readJsonBody(request, compiled.bodyLimit, compiled.limits.jsonDepth),
        compiled.create,
      );
      if (steps.prepare !== keepInput) ctx.input = await steps.prepare(ctx);
      const record = await steps.insert(ctx);
      ctx.record = record;
      ctx.headers.Location = `${request.basePath}/${resource.path}/${record.id}`;
      ctx.headers.ETag = etagOf(record);
      ctx.result = single(compiled, steps, record, ctx);
      return;
    }
    case 'update': {
      const read = await fetchOr404(steps, ctx, compiled);
      const scope = guardIfMatch(ctx, read, request);
      ctx.input = await validateInput(
        await readJsonBody(request, compiled.bodyLimit, compiled.limits.jsonDepth),
        compiled.update,
      );
      if (steps.prepare !== keepInput) ctx.input = await steps.prepare(ctx);
      const record = Object.keys(ctx.input).length === 0 ? read : await steps.modify(ctx);
      if (!record) throw await lostRace(steps, ctx, compiled, scope);
      ctx.record = record;
      ctx.headers.ETag = etagOf(record);
      ctx.result = single(compiled, steps, record, ctx);
      return;
    }
    case 'destroy': {
      const read = await fetchOr404(steps, ctx, compiled);
      const scope = guardIfMatch(ctx, read, request);
      if (!(await steps.remove(ctx))) throw await lostRace(steps, ctx, compiled, scope);
      ctx.status = 204;
      ctx.result = undefined;
      return;
    }
  }
}
