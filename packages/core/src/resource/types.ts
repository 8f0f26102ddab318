import type { Limits } from '../query/limits.js';
import type { IndexQuery } from '../query/resolve-query.js';
import type { ModelClass } from '../schema/infer-attributes.js';
import type { AttributeType, Condition, Scalar, Store, StoreProvider } from '../store/store.js';

/** The five actions of a resource. */
export type ActionName = 'create' | 'update' | 'destroy' | 'show' | 'index';

/** A record as stored and rendered: the model's fields plus the store-assigned `id`. */
export type RecordOf<M> = { id: number } & M;

/** Attribute names of a model (including `id`). */
export type FieldOf<M> = (keyof M & string) | 'id';

/** Equality (one value) or any-of (an array) per attribute: `{ ownerId: 7 }`. */
export type Filter<M> = { [K in FieldOf<M>]?: Scalar | readonly Scalar[] };

/** The request as hooks see it. */
export interface ContextRequest {
  readonly method: string;
  /** Path below the mount point, e.g. `/books/7`. */
  readonly path: string;
  /** Mount point, e.g. `/api`. */
  readonly basePath: string;
  readonly rawQuery: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The web framework's own request object (Express's `req`), for what the core does not model. */
  readonly native: unknown;
}

/**
 * Everything one request of one action knows, passed to every hook and step.
 * Read-only members describe the request; writable ones are how hooks change the outcome.
 *
 * Lifecycle: around hooks wrap everything; `before` hooks run first (nothing has been read
 * yet); the `scope` step; the action's own work (index: parse the query and `list`; show:
 * `fetch`; create: read and validate the body, `prepare`, `insert`; update: `fetch`, read and
 * validate the body, `prepare`, `modify`; destroy: `fetch`, `remove`); `render`; `after` hooks.
 *
 * @example
 * ```ts
 * const requireUser: Hook<Book, { user?: User }> = (ctx) => {
 *   if (!ctx.state.user) throw new UnauthorizedError();
 * };
 * ```
 */
export interface ActionContext<M = Record<string, unknown>, S = Record<string, unknown>> {
  readonly action: ActionName;
  readonly resource: Resource<M, S>;
  readonly request: ContextRequest;
  /** The record id from the path (show, update, destroy). */
  readonly id: number | undefined;
  /** Per-request bag for your own data, e.g. the current user; starts from the adapter's `state` option. */
  state: S;
  /** The store of this resource; inside {@link ActionContext.transaction} it is the transaction's. */
  store: Store;
  /** Conditions every store call of this request adds (set by the `scope` step; hooks may push). */
  scope: Condition[];
  /** Index: the checked query (filters, order, page); set after `before` hooks, writable. */
  query: IndexQuery | undefined;
  /** Create/update: the validated body; writable until it is stored. */
  input: Partial<M> | undefined;
  /** The record fetched (show, update, destroy) and then the record written (create, update). */
  record: RecordOf<M> | undefined;
  /** Index: the records of the page. */
  records: RecordOf<M>[] | undefined;
  /** Index: the number of records matching the filters. */
  total: number | undefined;
  /** The response body before serialization (`{ book: {...} }`); writable in after hooks. */
  result: unknown;
  /** Response status; writable. */
  status: number;
  /** Response headers; add or change entries. */
  readonly headers: Record<string, string>;
  /** Whether {@link ActionContext.respond} was called. */
  readonly responded: boolean;
  /**
   * Answers now with this body and status: the remaining before hooks, the action's steps and
   * the after hooks are skipped, and the store is not touched.
   */
  respond(body: unknown, status?: number): void;
  /**
   * Runs `work` inside a store transaction, with `ctx.store` bound to it meanwhile; everything
   * written by the steps is undone if `work` throws.
   *
   * @example
   * ```ts
   * around: { all: (ctx, next) => ctx.transaction(next) }
   * ```
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
}

/** A before or after hook. Throw an `HttpError` to answer with a problem. */
export type Hook<M = Record<string, unknown>, S = Record<string, unknown>> = (
  ctx: ActionContext<M, S>,
) => void | Promise<void>;

/** A hook around the whole action; must await `next()` to let the action run. */
export type AroundHook<M = Record<string, unknown>, S = Record<string, unknown>> = (
  ctx: ActionContext<M, S>,
  next: () => Promise<void>,
) => Promise<void>;

/** Hooks for every action (`all`, run first) and for single actions. */
export type HookMap<H> = { [K in ActionName | 'all']?: H | readonly H[] };

/** The replaceable steps of the actions; each receives the context. */
export interface Steps<M = Record<string, unknown>, S = Record<string, unknown>> {
  /** Conditions added to every lookup, list, update and destroy: e.g. `{ ownerId: ctx.state.user.id }`. */
  scope(ctx: ActionContext<M, S>): Filter<M> | undefined | Promise<Filter<M> | undefined>;
  /** Loads the record of `ctx.id` within `ctx.scope` (show, update, destroy). */
  fetch(ctx: ActionContext<M, S>): Promise<RecordOf<M> | undefined>;
  /** Loads a page of records for `ctx.query` within `ctx.scope` (index). */
  list(ctx: ActionContext<M, S>): Promise<{ records: RecordOf<M>[]; total?: number }>;
  /** Turns the validated input into the values to write (create, update): computed fields go here. */
  prepare(ctx: ActionContext<M, S>): Partial<M> | Promise<Partial<M>>;
  /** Stores `ctx.input` as a new record (create). */
  insert(ctx: ActionContext<M, S>): Promise<RecordOf<M>>;
  /** Writes `ctx.input` to the record of `ctx.id` (update); `undefined` when it is gone. */
  modify(ctx: ActionContext<M, S>): Promise<RecordOf<M> | undefined>;
  /** Deletes the record of `ctx.id` (destroy); `false` when it is gone. */
  remove(ctx: ActionContext<M, S>): Promise<boolean>;
  /** Turns a record into what the client sees (the `show` fields by default). */
  render(record: RecordOf<M>, ctx: ActionContext<M, S>): Record<string, unknown>;
}

/** A replacement for an action's own work (between the `before` and `after` hooks); sets `ctx.result`. */
export type ActionImplementation<M = Record<string, unknown>, S = Record<string, unknown>> = (
  ctx: ActionContext<M, S>,
) => Promise<void>;

/** Per-action field allow-lists. Every list defaults to all the model's attributes. */
export interface FieldRules<M> {
  /** What create may set. */
  create?: readonly (keyof M & string)[];
  /** What update may change. */
  update?: readonly (keyof M & string)[];
  /** What responses show (`id` is always shown). */
  show?: readonly (keyof M & string)[];
  /** What `filter[...]` may use. */
  filter?: readonly FieldOf<M>[];
  /** What `sort` may use. */
  sort?: readonly FieldOf<M>[];
  /** Fields the client may never send (422), such as fields computed on the server. `id` always is. */
  readOnly?: readonly (keyof M & string)[];
}

/**
 * The declaration of a resource.
 *
 * @example
 * ```ts
 * defineResource({ name: 'book', model: Book, perPage: { default: 10, max: 50 } });
 * ```
 */
export interface ResourceOptions<M, S> {
  /** Singular name: the key of one record in bodies (`book`). */
  name: string;
  /** Plural name: the key of lists and the path segment (`books`); derived from `name` by default. */
  plural?: string;
  /** Path segment, when it differs from the plural. */
  path?: string;
  /** The class whose class-validator decorators describe the fields. */
  model: ModelClass<M>;
  /** Attribute types that cannot be inferred from the decorators. */
  types?: { [K in keyof M]?: AttributeType };
  fields?: FieldRules<M>;
  /** Default order of the index, in `sort` syntax. Default `-id` (newest first). */
  defaultSort?: string;
  /** `per_page` default (25) and maximum (100). */
  perPage?: { default?: number; max?: number };
  /** Maximum request body size in bytes. Default 1 MiB. */
  bodyLimit?: number;
  /**
   * Whether the index counts the matching records (`X-Total-Count`, `last` link). Default true.
   * A request overrides it with `count=true|false`; without a count, `next` is found by reading
   * one record more than the page, so big tables do not pay for a `count(*)` on every page.
   */
  count?: boolean;
  /** Bounds on query strings, filter values, sort keys and JSON depth (see `Limits`). */
  limits?: Partial<Limits>;
  /** Actions to disable (`false`, answering 405) or replace. */
  actions?: { [A in ActionName]?: false | ActionImplementation<M, S> };
  hooks?: {
    before?: HookMap<Hook<M, S>>;
    after?: HookMap<Hook<M, S>>;
    around?: HookMap<AroundHook<M, S>>;
  };
  steps?: Partial<Steps<M, S>>;
  /** The store of this resource, when it differs from the API's. */
  store?: StoreProvider;
}

/**
 * A defined resource: its normalized declaration. Created by `defineResource`, which keeps the
 * literal `name` (and `plural`, when declared) in the type so that clients can check them.
 */
export interface Resource<
  M = Record<string, unknown>,
  S = Record<string, unknown>,
  N extends string = string,
  P extends string = string,
> {
  readonly name: N;
  readonly plural: P;
  readonly path: string;
  readonly model: ModelClass<M>;
  readonly options: Readonly<ResourceOptions<M, S>>;
}
