import type { CollectionSchema, Scalar } from '../schema/types.js';

/** A stored record: `id` plus the resource's attributes. */
export type StoredRecord = { id: number } & Record<string, Scalar>;

/** `field IN (values)`; one value is plain equality. Conditions of a query are ANDed. */
export interface Condition {
  readonly field: string;
  readonly values: readonly Scalar[];
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
  /** Whether the total number of matching records is wanted. */
  readonly count: boolean;
}

/** What {@link Collection.list} answers. */
export interface ListResult<R = StoredRecord> {
  readonly records: R[];
  /** Number of records matching `where` (ignoring limit/offset), when `count` was asked. */
  readonly total?: number;
}

/**
 * The records of one resource in a {@link Store} (a table, for the SQL stores). The core
 * validates and converts everything before calling a collection, so it only stores: every method receives attribute names that exist and
 * values of the right type. `where` conditions passed to the single-record methods carry the
 * resource's scope (e.g. "owned by the current user"): a record outside it is "not found".
 *
 * Implementations must satisfy the shared store suite (`@resourcery/testing`):
 * ids start at 1, increase and are never reused; strings compare by code point and
 * case-sensitively; `null` sorts before every value in ascending order; `update` writes only
 * the fields it is given.
 *
 * @example
 * ```ts
 * const books = memoryStore().collection(schema);
 * const book = await books.create({ name: 'Dune', author: 'Herbert' });
 * await books.update(book.id, { name: 'Dune Messiah' }, []);
 * ```
 */
export interface Collection<R extends StoredRecord = StoredRecord> {
  readonly schema: CollectionSchema;
  /** Lists records; filtering, ordering, paging and counting happen in the store (index). */
  list(query: ListQuery): Promise<ListResult<R>>;
  /** The record with this id that also matches `where`, or `undefined` (show, update, destroy). */
  find(id: number, where: readonly Condition[]): Promise<R | undefined>;
  /** Stores a new record; the store assigns the id. Answers the stored record. */
  create(values: Readonly<Partial<R>>): Promise<R>;
  /**
   * Writes exactly the given fields of the record with this id if it matches `where`, in one
   * atomic step (no read-modify-write). Answers the whole record after the change, or
   * `undefined` when there is no such record.
   */
  update(id: number, changes: Readonly<Partial<R>>, where: readonly Condition[]): Promise<R | undefined>;
  /** Deletes the record if it matches `where`; answers whether a record was deleted. */
  destroy(id: number, where: readonly Condition[]): Promise<boolean>;
  /**
   * Runs `work` in a transaction: everything done through the collection it receives is
   * committed together when `work` resolves and undone when it rejects.
   */
  transaction<T>(work: (collection: Collection<R>) => Promise<T>): Promise<T>;
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
  /** Prepares the store (connects, creates tables...); called before serving, again after a failure. */
  init?(schemas: readonly CollectionSchema[]): Promise<void>;
  /** Releases connections. */
  close?(): Promise<void>;
}
