import type {
  ActionContext,
  CreateContext,
  DestroyContext,
  Filter,
  IndexContext,
  MemberContext,
  RecordOf,
  UpdateContext,
} from './context-types.js';

// The types of the replaceable steps (`steps:` of a resource), apart from the declaration's.

/**
 * The replaceable steps of the actions. Each receives the context and `next`, the default it
 * replaces: call it to add to the default instead of re-implementing it.
 *
 * @example
 * ```ts
 * steps: {
 *   prepare: (ctx, next) => ({ ...next(), slug: slugify(String(ctx.input?.name)) }),
 *   render: (record, ctx, next) => ({ ...next(record), links: { self: `/books/${record.id}` } }),
 * }
 * ```
 */
export interface Steps<M = Record<string, unknown>, S = Record<string, unknown>> {
  /** Conditions added to every find, list, update and destroy: e.g. `{ ownerId: ctx.state.user.id }`. */
  scope(
    ctx: ActionContext<M, S>,
    next: () => Filter<M> | undefined,
  ): Filter<M> | undefined | Promise<Filter<M> | undefined>;
  /** Loads the record of `ctx.id` within `ctx.where` (show, update, destroy). */
  find(ctx: MemberContext<M, S>, next: () => Promise<RecordOf<M> | undefined>): Promise<RecordOf<M> | undefined>;
  /** Loads a page of records for `ctx.query` within `ctx.where` (index). */
  list(ctx: IndexContext<M, S>, next: () => Promise<Listed<M>>): Promise<Listed<M>>;
  /** Turns the validated input into the values to write (create, update): computed fields go here. */
  prepare(ctx: CreateContext<M, S> | UpdateContext<M, S>, next: () => Partial<M>): Partial<M> | Promise<Partial<M>>;
  /** Stores `ctx.input` as a new record (create). */
  create(ctx: CreateContext<M, S>, next: () => Promise<RecordOf<M>>): Promise<RecordOf<M>>;
  /** Writes `ctx.input` to the record of `ctx.id` (update); `undefined` when it is gone. */
  update(ctx: UpdateContext<M, S>, next: () => Promise<RecordOf<M> | undefined>): Promise<RecordOf<M> | undefined>;
  /** Deletes the record of `ctx.id` (destroy); `false` when it is gone. */
  destroy(ctx: DestroyContext<M, S>, next: () => Promise<boolean>): Promise<boolean>;
  /** Turns a record into what the client sees (`id` and the `show` fields by default). */
  render(
    record: RecordOf<M>,
    ctx: ActionContext<M, S>,
    next: (record: RecordOf<M>) => Record<string, unknown>,
  ): Record<string, unknown>;
}

/** What the `list` step answers: a page of records and, when counted, the total. */
export interface Listed<M> {
  records: RecordOf<M>[];
  total?: number;
  /** Set when `total` is the store's estimate (`count=estimated`). */
  estimated?: true;
}
