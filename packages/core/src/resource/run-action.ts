import { readJsonBody } from '../body/read-body.js';
import { validateInput } from '../body/validate-input.js';
import { NotFoundError } from '../errors/http-error.js';
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

/** The default steps; a resource's `steps` option replaces any of them. */
export function defaultSteps(compiled: CompiledResource): Steps {
  return {
    scope: () => undefined,
    fetch: (ctx) => ctx.store.findOne(ctx.id as number, ctx.scope) as Promise<Rec | undefined>,
    list: (ctx) => {
      const query = ctx.query as NonNullable<Ctx['query']>;
      return ctx.store.findMany({
        where: [...query.where, ...ctx.scope],
        order: query.order,
        limit: query.perPage,
        offset: Math.min((query.page - 1) * query.perPage, Number.MAX_SAFE_INTEGER),
        count: true,
      }) as Promise<{ records: Rec[]; total?: number }>;
    },
    prepare: (ctx) => ctx.input as Record<string, unknown>,
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
export async function runAction(
  compiled: CompiledResource,
  steps: Steps,
  ctx: Context,
  request: NeutralRequest,
): Promise<void> {
  const { hooks } = compiled;
  const action = ctx.action;
  const replacement = compiled.resource.options.actions?.[action];

  const core = async (): Promise<void> => {
    for (const hook of hooks.before[action]) {
      await hook(ctx);
      if (ctx.responded) return;
    }
    ctx.scope.push(...toConditions(await steps.scope(ctx)));
    if (typeof replacement === 'function') await replacement(ctx);
    else await work(compiled, steps, ctx, request);
    if (ctx.responded) return;
    for (const hook of hooks.after[action]) await hook(ctx);
  };

  const around = hooks.around[action];
  const dispatch = async (index: number): Promise<void> => {
    const hook = around[index];
    if (!hook) return core();
    let called = false;
    await hook(ctx, async () => {
      if (called) throw new Error(`An around hook of ${compiled.resource.name}.${action} called next() twice`);
      called = true;
      await dispatch(index + 1);
    });
  };
  await dispatch(0);
}

async function fetchOr404(steps: Steps, ctx: Context, compiled: CompiledResource): Promise<Rec> {
  const record = await steps.fetch(ctx);
  if (!record) throw new NotFoundError(`${compiled.resource.name} ${ctx.id} does not exist`);
  ctx.record = record;
  return record;
}

async function work(compiled: CompiledResource, steps: Steps, ctx: Context, request: NeutralRequest): Promise<void> {
  const { resource } = compiled;
  const single = (record: Rec) => ({ [resource.name]: steps.render(record, ctx) });
  switch (ctx.action) {
    case 'index': {
      ctx.query = resolveIndexQuery(parseIndexQuery(request.rawQuery), compiled.query);
      const { records, total } = await steps.list(ctx);
      ctx.records = records;
      ctx.total = total;
      ctx.result = { [resource.plural]: records.map((record) => steps.render(record, ctx)) };
      Object.assign(ctx.headers, paginationHeaders(request, ctx.query.page, ctx.query.perPage, total));
      return;
    }
    case 'show':
      ctx.result = single(await fetchOr404(steps, ctx, compiled));
      return;
    case 'create': {
      ctx.input = await validateInput(await readJsonBody(request, compiled.bodyLimit), compiled.create);
      ctx.input = await steps.prepare(ctx);
      const record = await steps.insert(ctx);
      ctx.record = record;
      ctx.headers.Location = `${request.basePath}/${resource.path}/${record.id}`;
      ctx.result = single(record);
      return;
    }
    case 'update': {
      await fetchOr404(steps, ctx, compiled);
      ctx.input = await validateInput(await readJsonBody(request, compiled.bodyLimit), compiled.update);
      ctx.input = await steps.prepare(ctx);
      const record = Object.keys(ctx.input).length === 0 ? ctx.record : await steps.modify(ctx);
      if (!record) throw new NotFoundError(`${resource.name} ${ctx.id} does not exist`);
      ctx.record = record;
      ctx.result = single(record);
      return;
    }
    case 'destroy': {
      await fetchOr404(steps, ctx, compiled);
      if (!(await steps.remove(ctx))) throw new NotFoundError(`${resource.name} ${ctx.id} does not exist`);
      ctx.status = 204;
      ctx.result = undefined;
      return;
    }
  }
}
