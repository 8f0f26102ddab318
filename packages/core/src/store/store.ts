import type { Operator } from '../contract/operators.js';
import type { CollectionSchema, Id, Scalar, StoredValue } from '../schema/types.js';
import type { AggregateQuery, AggregateRow } from './aggregate-query.js';
import type { ChangeLog } from './changes.js';
import type { StoreRetry, StoreTransaction, TransactionOptions } from './transaction.js';

export type { AggregateQuery, AggregateRow } from './aggregate-query.js';
export type { Change, ChangeKind, ChangeLog } from './changes.js';
export type { Isolation, StoreRetry, StoreTransaction, TransactionOptions } from './transaction.js';

/** A stored record: `id` plus the resource's attributes, each in its canonical form (see `AttributeType`). */
export type StoredRecord = { id: Id } & Record<string, StoredValue>;

/**
 * One condition of a query; the conditions of a query are ANDed. Without `op`: `field IN
 * (values)` (one value is plain equality; a `null` among them matches the records without a
 * value). With `op`: `values` holds its one operand, and a comparison never matches `null`
 * (`null`'s operand is `true` or `false`). With `related`: `field` holds the id (or, with `key`, the
 * value of the attribute `key`) of a record of `collection` matching `related.where` (a
 * semi-join; `values` is empty). `{ field: 'id', related: { collection: 'issue_labels', key:
 * 'issueId', where } }` keeps the issues that some join record matching `where` names. With
 * `search`: the `q=` search, see {@link SearchCondition} (`field` is its first field, `values` is empty).
 */
export interface Condition {
  readonly field: string;
  readonly values: readonly Scalar[];
  readonly op?: Exclude<Operator, 'eq'>;
  readonly related?: {
    readonly collection: string;
    readonly where: readonly Condition[];
    /** The attribute of `collection` that `field` holds; `id` when absent. */
    readonly key?: string;
  };
  readonly search?: SearchCondition;
}

/**
 * The `q=` search of a {@link Condition}: the records where every one of `words` begins some
 * word of one of `fields` (string attributes of the schema's `search` list). `words` are already
 * folded (`searchWords` of `@resourcery/core/store`), and a store compares them with the words
 * `searchWords` makes of each field's value: a prefix, code point by code point.
 */
export interface SearchCondition {
  readonly fields: readonly string[];
  readonly words: readonly string[];
}

/** One sort key. */
export interface Order {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

/** A list query, already validated and converted to attribute types by the core. */
export interface ListQuery {
  readonly where: readonly Condition[];
  /** Complete order; the core always ends it with `id` so that pages are stable. */
  readonly order: readonly Order[];
  readonly limit: number;
  readonly offset: number;
  /**
   * Whether the total number of matching records is wanted: `true` exactly; `'estimated'` exactly up
   * to `estimateAbove` matches, past them the store may answer an estimate of the same query (its
   * `where` whole) and mark the result `estimated`. A store without estimates counts exactly.
   */
  readonly count: boolean | 'estimated';
  /** With `count: 'estimated'`: the most matches counted exactly. Default 10,000 (`ESTIMATE_ABOVE`). */
  readonly estimateAbove?: number;
  /**
   * Keeps only the first `limit` records of each value of `field` (in `order`), before the
   * query's own `limit` and `offset` apply: the records of a has-many relation for a page of
   * parents, in one query.
   */
  readonly perGroup?: { readonly field: string; readonly limit: number };
  /**
   * Keyset pagination: only the records strictly after this position in `order` (one value per
   * order key, `null`s included), instead of `offset`.
   */
  readonly after?: readonly Scalar[];
  /** The attributes the caller needs (`id` always comes too); all when absent. */
  readonly select?: readonly string[];
}

/** What {@link Collection.list} answers. */
export interface ListResult<R = StoredRecord> {
  readonly records: R[];
  /**
   * Number of records matching `where` (ignoring limit, offset and `after`; after the `perGroup`
   * cut), when `count` was asked.
   */
  readonly total?: number;
  /** Set when `total` is an estimate (`count: 'estimated'`, more than `estimateAbove` matches). */
  readonly estimated?: true;
}

/**
 * The records of one resource in a {@link Store} (a table, for the SQL stores). The core
 * validates and converts everything before calling a collection, so it only stores: every method receives attribute names that exist and
 * values of the right type. `where` conditions passed to the single-record methods carry the
 * resource's scope (e.g. "owned by the current user"): a record outside it is "not found".
 *
 * Implementations must satisfy the shared store suite (`@resourcery/testing`):
 * integer ids start at 1, increase and are never reused (a uuid id is made by the store when
 * `create` gives none); writes get the server's values of `serverValues` (uuid ids,
 * timestamps, defaults) through whatever path they come, a raw `store.transaction` included;
 * strings compare by code point and case-sensitively, decimals numerically; `null` sorts before
 * every value in ascending order; `update` writes only the fields it is given (and the
 * `updatedAt` it sets); the schema's `unique` sets and `references` are enforced, breaking one
 * throws a `ConstraintViolation`.
 *
 * @example
 * ```ts
 * const books = memoryStore().collection(schema);
 * const book = await books.create({ name: 'Dune', author: 'Herbert' });
 * await books.update(book.id, { name: 'Dune Messiah' }, []);
 * ```
 */
export interface Collection<R extends { id: Id } = StoredRecord> {
  readonly schema: CollectionSchema;
  /** Lists records; filtering, ordering, paging and counting happen in the store (index). */
  list(query: ListQuery): Promise<ListResult<R>>;
  /** The record with this id that also matches `where`, or `undefined` (show, update, destroy). */
  find(id: Id, where: readonly Condition[]): Promise<R | undefined>;
  /**
   * Stores a new record and answers it. The store assigns an integer id, or a new uuid when the
   * id is a uuid and the values give none. Attributes left out get their `default`, else `null`;
   * timestamp attributes left out get the current time (see `serverValues`).
   */
  create(values: Readonly<Partial<R>>): Promise<R>;
  /**
   * Stores several new records at once, all or none, and answers them in the order given, each
   * as `create` would (ids in that order, server values, defaults, sets of ids): a bulk create.
   * Optional: without it, the core calls `create` once per record inside a transaction. The SQL
   * stores send one multi-row `INSERT` (and one for the join rows of all the records).
   */
  createMany?(values: readonly Readonly<Partial<R>>[]): Promise<R[]>;
  /**
   * Writes exactly the given fields of the record with this id if it matches `where`, in one
   * atomic step (no read-modify-write), and the current time in its `timestamp: 'update'`
   * attribute when at least one field is given. Answers the whole record after the change, or
   * `undefined` when there is no such record.
   */
  update(id: Id, changes: Readonly<Partial<R>>, where: readonly Condition[]): Promise<R | undefined>;
  /**
   * Deletes the record if it matches `where`; answers whether a record was deleted. Records of
   * other collections referring to it are destroyed or nullified as their foreign key says, or,
   * by default, the destroy fails with a `referenced` `ConstraintViolation`.
   */
  destroy(id: Id, where: readonly Condition[]): Promise<boolean>;
  /**
   * Runs `work` in a transaction: everything done through the collection it receives is
   * committed together when `work` resolves and undone when it rejects.
   */
  transaction<T>(work: (collection: Collection<R>) => Promise<T>): Promise<T>;
  /**
   * Groups the records matching `where` and aggregates them, in the database: one row per
   * combination of the group's values that occurs, ordered by them ascending (`null` first,
   * strings by code point, decimals numerically), at most `limit` rows; without `group`, exactly
   * one row (`count` 0 when nothing matches). Optional: a resource whose store lacks it cannot
   * serve statistics (the API refuses to mount it with `stats`).
   */
  aggregate?(query: AggregateQuery): Promise<AggregateRow[]>;
  /**
   * This collection, telling `listener` of each retry of its writes outside a transaction (the
   * API logs each with its request). Optional: stores that never retry leave it out.
   */
  reportingRetries?(listener: (retry: StoreRetry) => void): Collection<R>;
  /**
   * This collection reading from the primary database, for a store that sends the reads made
   * outside a transaction to read replicas: the core asks for it in write actions, so that a
   * request that wrote reads its own writes (its find, its reference checks, its `include`, its
   * hooks' reads through `ctx`). Optional: a store with one database leaves it out.
   *
   * @example
   * ```ts
   * const fresh = await (books.primary?.() ?? books).find(7, []); // not a replica's copy
   * ```
   */
  primary?(): Collection<R>;
}

/**
 * Where records live: a database (or the memory) holding one {@link Collection} per resource.
 * `memoryStore()` and `sqlStore(url)` make one; the API prepares and closes it.
 *
 * @example
 * ```ts
 * const db: Store = memoryStore();
 * const books = db.collection(booksSchema);
 * ```
 */
export interface Store {
  /** The collection of one resource's records; called once per resource when the API is built. */
  collection(schema: CollectionSchema): Collection;
  /**
   * Runs `work` in one transaction over every collection of the store: committed when it
   * resolves, undone when it rejects. A store may run `work` again on a new transaction when the
   * database aborts it for a conflict (see {@link TransactionOptions}).
   */
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Prepares the store (connects, creates tables...); called before serving, again after a
   * failure. `schemas` are every collection of the API, referenced ones before those referring to them.
   */
  init?(schemas: readonly CollectionSchema[]): Promise<void>;
  /** Releases connections. */
  close?(): Promise<void>;
  /**
   * A random secret kept by the store under `name`, made on first use and then the same for
   * every process that uses the store (the SQL stores keep it in a table of their own): the API
   * keys its cursors and entity tags with it, so that a cursor one process made is accepted by
   * every other one, and across restarts. A store that cannot share one leaves this out; the API
   * then needs its `secret` option unless it is the only process (the memory store's is per
   * store, as its records are).
   *
   * @example
   * ```ts
   * const secret = await store.secret?.('cursor'); // 'k3X0…' (43 base64url characters)
   * ```
   */
  secret?(name: string): Promise<string>;
  /**
   * The store's log of the committed changes of its live collections (schemas with `live:
   * true`), for live events. A store without it cannot serve a live resource (the API refuses to
   * mount one).
   *
   * @example
   * ```ts
   * const changes = await store.changes?.().read(0, 100); // [{ seq: 1, collection: 'issues', kind: 'created', … }]
   * ```
   */
  changes?(): ChangeLog;
}
