import type { Principal } from '../access/principal.js';
import type { ActionName } from '../contract/actions.js';
import type { IndexQuery } from '../query/resolve-query.js';
import type { StatsQuery } from '../query/stats-query.js';
import type { Id, Scalar } from '../schema/types.js';
import type { AggregateRow, Collection, Condition } from '../store/store.js';
import type { Resource } from './options.js';

declare const SERVER_SET: unique symbol;
declare const DONE_BRAND: unique symbol;

/**
 * What `next()` of an around hook resolves to, and what the hook must resolve to in turn: an
 * around hook that forgets to call `next()` (or `ctx.respond()`) does not type-check.
 *
 * @example
 * ```ts
 * const timed: AroundHook = async (ctx, next) => {
 *   const started = Date.now();
 *   const done = await next();
 *   ctx.headers['Server-Timing'] = `action;dur=${Date.now() - started}`;
 *   return done;
 * };
 * ```
 */
export type Done = { readonly [DONE_BRAND]: true };

/** The one {@link Done} value. */
export const DONE = Object.freeze({}) as Done;

/**
 * Marks a model field the server sets (an `id` declared as a uuid, `createdAt`, `updatedAt`):
 * records have it, and typed clients leave it out of what create and update accept.
 *
 * @example
 * ```ts
 * class Review {
 *   @IsUUID() id!: ServerSet<string>;
 *   @IsISO8601() createdAt!: ServerSet<string>;
 * }
 * ```
 */
export type ServerSet<T> = T & { readonly [SERVER_SET]?: true };

/** The id of a model's records: what the model declares for `id` (a uuid string), else a number. */
export type IdOf<M> = M extends { id: infer I } ? I : number;

/** A record as stored and rendered: the model's fields plus the `id`. */
export type RecordOf<M> = { id: IdOf<M> } & M;

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
  /** The adapter's own request object (Express's `req`), for what the core does not model. */
  readonly native: unknown;
}

/**
 * What every action's context has. Read-only members describe the request; writable ones are
 * how hooks and steps change the outcome.
 */
interface BaseContext<M, S> {
  readonly action: ActionName;
  readonly resource: Resource<M, S>;
  readonly request: ContextRequest;
  /**
   * This request's id: the client's `X-Request-Id` when it is a sane token (at most 100
   * characters), else a random UUID; the one the API's `logger` logs and sends back.
   */
  readonly requestId: string;
  /** Per-request bag for your own data, e.g. the current user; starts from the API's `state` option. */
  state: S;
  /** This resource's records; inside {@link BaseContext.transaction} the transaction's. */
  collection: Collection;
  /** Conditions every store call of this request adds: the `scope` step's, and any a hook pushes. */
  where: Condition[];
  /** The response body before serialization (`{ book: {...} }`); writable in after hooks. */
  result: unknown;
  /** Response status; writable. */
  status: number;
  /** Response headers; add or change entries. */
  readonly headers: Record<string, string>;
  /** Whether {@link BaseContext.respond} was called. */
  readonly responded: boolean;
  /**
   * Answers now with this body and status: the remaining before hooks, the action's steps and
   * the after hooks are skipped, and the store is not touched. An around hook may return what
   * it answers instead of calling `next()`.
   */
  respond(body: unknown, status?: number): Done;
  /** Who the request comes from, as the API's `authenticate` answered; `undefined` when anonymous. */
  readonly principal: Principal | undefined;
  /**
   * Runs `work` inside a transaction of this resource's store, with `ctx.collection` and
   * {@link BaseContext.collectionOf} bound to it meanwhile (and restored after): an audit row
   * written to another resource commits with the record, and everything is undone if `work` throws.
   * When the database aborts the transaction for a conflict (a deadlock, a serialization
   * failure), the SQL stores run `work` again from the start, unless {@link BaseContext.sideEffect}
   * was called in it, or `work` is the `next` of the around hook that opened it.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Says that this hook does something outside the store (sends a mail, calls a payment
   * service): the transaction it runs in (a bulk write's, or one of {@link BaseContext.transaction})
   * is then never run again after a conflict, so that nothing is done twice; the request fails
   * with 503 instead. Outside a transaction it changes nothing: only the failed write itself is
   * run again, never the hooks.
   *
   * @example
   * ```ts
   * after: { create: async (ctx) => { ctx.sideEffect(); await mailer.send(welcome(ctx.record)); } }
   * ```
   */
  sideEffect(): void;
  /**
   * The records of another resource of the same API (typed by it), inside
   * {@link BaseContext.transaction} the transaction's. Creates fill server-set values
   * (uuid ids, timestamps, defaults); hooks and validation of that resource do not run.
   */
  // biome-ignore lint/suspicious/noExplicitAny: a resource of any state, names and relations
  collectionOf<T>(resource: Resource<T, any, any, any, any>): Collection<RecordOf<T> & { id: Id }>;
}

/** The context of `GET /books`. */
export interface IndexContext<M = Record<string, unknown>, S = Record<string, unknown>> extends BaseContext<M, S> {
  readonly action: 'index';
  /**
   * The checked query (filters, order, page). Parsed from the query string when first read
   * (a malformed one throws its 400 then), so before hooks that do not read it run first.
   */
  query: IndexQuery;
  /** The records of the page, once listed. */
  records: RecordOf<M>[] | undefined;
  /** The number of records matching the filters, when counted. */
  total: number | undefined;
  /** Whether `total` is the store's estimate (`count=estimated` past the resource's `estimateCountsAbove`). */
  estimated: boolean;
}

/** The context of `GET /books/stats` (a resource declaring `stats`). */
export interface StatsContext<M = Record<string, unknown>, S = Record<string, unknown>> extends BaseContext<M, S> {
  readonly action: 'stats';
  /** The index query whose conditions (`where`, `archived`) the statistics take; its order and page are unused. */
  query: IndexQuery;
  /** The checked `group`, `sum`, `min` and `max`; parsed when first read, as `query` is. */
  stats: StatsQuery;
  /** The groups, once aggregated. */
  rows: AggregateRow[] | undefined;
}

/** What the contexts of the member actions (`/books/:id`) share. */
interface MemberBase<M, S> extends BaseContext<M, S> {
  /** The record id from the path (a number, or a lowercase uuid). */
  readonly id: IdOf<M>;
  /** The record read (and, for update, then the record written). */
  record: RecordOf<M> | undefined;
}

/** The context of `GET /books/:id`. */
export interface ShowContext<M = Record<string, unknown>, S = Record<string, unknown>> extends MemberBase<M, S> {
  readonly action: 'show';
}

/** The context of `PATCH /books/:id`. */
export interface UpdateContext<M = Record<string, unknown>, S = Record<string, unknown>> extends MemberBase<M, S> {
  readonly action: 'update';
  /** The validated body once read; writable until it is written. */
  input: Partial<M> | undefined;
}

/** The context of `DELETE /books/:id`. */
export interface DestroyContext<M = Record<string, unknown>, S = Record<string, unknown>> extends MemberBase<M, S> {
  readonly action: 'destroy';
}

/** The context of `POST /books`. */
export interface CreateContext<M = Record<string, unknown>, S = Record<string, unknown>> extends BaseContext<M, S> {
  readonly action: 'create';
  /** The validated body once read; writable until it is written. */
  input: Partial<M> | undefined;
  /** The record written. */
  record: RecordOf<M> | undefined;
}

/**
 * The context of any action: narrow it with `ctx.action` (`if (ctx.action === 'update') ctx.id`).
 *
 * Lifecycle: around hooks wrap everything; `before` hooks run first (nothing has been read
 * yet: 401 before 404); the `scope` step; the action's steps (index: `list`; show: `find`;
 * create: read and validate the body, `prepare`, `create`; update: `find`, read and validate,
 * `prepare`, `update`; destroy: `find`, `destroy`); `render`; `after` hooks. A thrown error
 * goes through the `error` hooks, then becomes a problem+json answer.
 *
 * @example
 * ```ts
 * const requireUser: Hook<ActionContext<Book, { user?: User }>> = (ctx) => {
 *   if (!ctx.state.user) throw new UnauthorizedError();
 * };
 * ```
 */
export type ActionContext<M = Record<string, unknown>, S = Record<string, unknown>> =
  | IndexContext<M, S>
  | StatsContext<M, S>
  | ShowContext<M, S>
  | CreateContext<M, S>
  | UpdateContext<M, S>
  | DestroyContext<M, S>;

/** The context of one action: `ContextOf<'update', Book>` is an {@link UpdateContext}. */
export type ContextOf<A extends ActionName, M = Record<string, unknown>, S = Record<string, unknown>> = Extract<
  ActionContext<M, S>,
  { readonly action: A }
>;

/** The context of show, update or destroy: it has a typed `id` and a `record`. */
export type MemberContext<M = Record<string, unknown>, S = Record<string, unknown>> =
  | ShowContext<M, S>
  | UpdateContext<M, S>
  | DestroyContext<M, S>;
