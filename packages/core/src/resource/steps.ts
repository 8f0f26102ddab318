import { BadRequestError } from '../errors/http-error.js';
import type { Scalar } from '../schema/types.js';
import type { StoredRecord } from '../store/store.js';
import type { Context } from './context.js';
import type { Filter, RecordOf } from './context-types.js';
import { type CursorBinding, decodeCursor } from './cursor.js';
import type { Listed, Steps } from './step-types.js';

type Rec = RecordOf<Record<string, unknown>>;
type Values = Partial<Record<string, unknown>>;

/**
 * The steps as the lifecycle calls them: the resource's own, each with its default as `next`.
 * Each receives the context of the action that calls it (as the declared `Steps` type it).
 */
export interface RunSteps {
  /** Whether the resource declares a `scope` step (else the lifecycle skips it). */
  readonly scoped: boolean;
  /** Whether the resource declares a `prepare` step (else the input is written as validated). */
  readonly prepared: boolean;
  /** Whether the resource declares a `render` step (then `fields=` still reads whole records, for it to see them). */
  readonly rendered: boolean;
  /**
   * Whether an update may skip reading the record first: none of `find`, `prepare` and `update`
   * is the resource's own (any of them may look at the record read before the write).
   */
  readonly writesBlind: boolean;
  /** Whether creates are the store's own (no `create` step declared): a bulk create then writes all its records at once. */
  readonly createsInStore: boolean;
  scope(
    ctx: Context,
  ): Filter<Record<string, unknown>> | undefined | Promise<Filter<Record<string, unknown>> | undefined>;
  find(ctx: Context): Promise<Rec | undefined>;
  list(ctx: Context): Promise<Listed<Record<string, unknown>>>;
  prepare(ctx: Context): Values | Promise<Values>;
  create(ctx: Context): Promise<Rec>;
  update(ctx: Context): Promise<Rec | undefined>;
  destroy(ctx: Context): Promise<boolean>;
  render(record: Rec, ctx: Context): Record<string, unknown>;
}

type StepName = Exclude<
  keyof RunSteps,
  'scoped' | 'prepared' | 'rendered' | 'writesBlind' | 'createsInStore' | 'render'
>;

/** The default steps: each is one call of the resource's collection. */
const DEFAULTS: Pick<RunSteps, StepName> = {
  scope: () => undefined,
  find: (ctx) => ctx.collection.find(ctx.id, ctx.where) as Promise<Rec | undefined>,
  list: async (ctx) => {
    const query = ctx.query;
    const cursor = ctx.compiled.query.pagination === 'cursor';
    const after = cursor && query.after !== undefined ? await afterValues(ctx, query.after) : undefined;
    // Without a count (and always with cursors), one record more than the page tells whether
    // there is a next page.
    return ctx.collection.list({
      where: [...query.where, ...ctx.where],
      order: query.order,
      // An estimated count may be an estimate, which tells no last page: it reads one more too.
      limit: query.count === true && !cursor ? query.perPage : query.perPage + 1,
      offset: cursor ? 0 : Math.min((query.page - 1) * query.perPage, Number.MAX_SAFE_INTEGER),
      count: query.count,
      ...(query.count === 'estimated' ? { estimateAbove: ctx.compiled.query.estimateAbove } : {}),
      ...(after ? { after } : {}),
      // A render step of the resource's own sees whole records, whatever `fields=` asks.
      ...(query.fields && !ctx.compiled.steps.rendered ? { select: selected(ctx, query.fields) } : {}),
    }) as Promise<Listed<Record<string, unknown>>>;
  },
  prepare: (ctx) => ctx.input ?? {},
  create: (ctx) => ctx.collection.create(ctx.input as Partial<StoredRecord>) as Promise<Rec>,
  update: (ctx) =>
    ctx.collection.update(ctx.id, ctx.input as Partial<StoredRecord>, ctx.where) as Promise<Rec | undefined>,
  // A resource that archives sets its archive field instead: the record stays, out of sight.
  destroy: async (ctx) => {
    const { archive } = ctx.compiled;
    if (!archive) return ctx.collection.destroy(ctx.id, ctx.where);
    return (await ctx.collection.update(ctx.id, { [archive]: new Date().toISOString() }, ctx.where)) !== undefined;
  },
};

/**
 * The sort values after which the page of an `after` cursor starts: those it holds, or those of
 * the record it names (a cursor on long values holds only the id of the page's last record).
 */
async function afterValues(ctx: Context, raw: string): Promise<Scalar[]> {
  const { order } = ctx.query;
  const position = await decodeCursor(ctx.keys, cursorBinding(ctx), raw);
  if ('values' in position) return [...position.values];
  const anchor = await ctx.collection.find(position.anchor, ctx.where);
  if (!anchor) {
    throw new BadRequestError(
      'after: the record the cursor stood at no longer exists; start again from the first page (without after)',
      'invalid_query',
    );
  }
  return order.map(({ field }) => (anchor[field] ?? null) as Scalar);
}

/** What the cursors of an index request are bound to: its resource, query and the caller's scope. */
export function cursorBinding(ctx: Context): CursorBinding {
  const { where, order } = ctx.query;
  return { resource: ctx.resource.path, where, scope: ctx.where, order };
}

/**
 * The attributes an index with `fields=` reads: those, the sort keys (for cursors), and the
 * foreign keys of the included belongs-to relations (and the ids of the many-to-many ones).
 */
function selected(ctx: Context, fields: readonly string[]): string[] {
  const needed = new Set(fields);
  for (const { field } of ctx.query.order) needed.add(field);
  for (const name of ctx.query.include) {
    const relation = ctx.mounted?.self.relations.get(name);
    if (relation && relation.kind !== 'hasMany') needed.add(relation.foreignKey);
  }
  needed.delete('id');
  return [...needed];
}

// biome-ignore lint/suspicious/noExplicitAny: each declared step is called with the context of its own action
type AnyStep = (...args: any[]) => unknown;

/**
 * The steps of a resource: each declared step receives its default as `next`; undeclared ones
 * are the defaults themselves (no wrapper on the hot path).
 */
export function composeSteps(declared: Partial<Steps>): RunSteps {
  // The fields this caller may read (the resource's shown fields without those hidden from them).
  const render = (record: Rec, ctx: Context): Record<string, unknown> => {
    const fields: Record<string, unknown> = {};
    for (const field of ctx.view.shown) fields[field] = record[field] ?? null;
    return fields;
  };
  const steps = { ...DEFAULTS } as Record<StepName, AnyStep>;
  for (const name of Object.keys(DEFAULTS) as StepName[]) {
    const own = declared[name] as AnyStep | undefined;
    const fallback = DEFAULTS[name] as AnyStep;
    if (own) steps[name] = (ctx: unknown) => own(ctx, () => fallback(ctx));
  }
  const ownRender = declared.render as AnyStep | undefined;
  return {
    ...(steps as unknown as Pick<RunSteps, StepName>),
    scoped: declared.scope !== undefined,
    prepared: declared.prepare !== undefined,
    writesBlind: !declared.find && !declared.prepare && !declared.update,
    createsInStore: !declared.create,
    rendered: ownRender !== undefined,
    render: ownRender
      ? (record, ctx) => ownRender(record, ctx, (own: Rec) => render(own, ctx)) as Record<string, unknown>
      : render,
  };
}
