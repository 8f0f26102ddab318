/** Value types an attribute can hold. */
export type AttributeType = 'integer' | 'number' | 'string' | 'boolean';

/** A stored value. `null` stands for "no value" in every store. */
export type Scalar = string | number | boolean | null;

/** A stored record: `id` plus the resource's attributes. */
export type StoredRecord = { id: number } & Record<string, Scalar>;

/** One attribute of a collection, as stores see it. */
export interface AttributeSchema {
  readonly name: string;
  readonly type: AttributeType;
  /** Whether the attribute may be `null` (absent on create). */
  readonly nullable: boolean;
  /** Maximum string length, when the model declares one (stores may size columns by it). */
  readonly maxLength?: number;
}

/** What a store knows about one resource's records. */
export interface CollectionSchema {
  /** Table / collection name, e.g. `books`. */
  readonly name: string;
  /** Every attribute, `id` first. */
  readonly attributes: readonly AttributeSchema[];
  /** Attributes that are filtered or sorted on (stores may index them). */
  readonly indexed: readonly string[];
}

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
export interface FindManyQuery {
  readonly where: readonly Condition[];
  /** Complete order; the core always ends it with `id` so that pages are stable. */
  readonly order: readonly Order[];
  readonly limit: number;
  readonly offset: number;
  /** Whether the total number of matching records is wanted. */
  readonly count: boolean;
}

/** What {@link Store.findMany} answers. */
export interface FindManyResult<R = StoredRecord> {
  readonly records: R[];
  /** Number of records matching `where` (ignoring limit/offset), when `count` was asked. */
  readonly total?: number;
}

/**
 * Storage for the records of one resource. The core validates and converts everything before
 * calling a store, so a store only stores: every method receives attribute names that exist and
 * values of the right type. `where` conditions passed to the single-record methods carry the
 * resource's scope (e.g. "owned by the current user"): a record outside it is "not found".
 *
 * Implementations must satisfy the shared store suite (`@resourcery/core/testing`):
 * ids start at 1, increase and are never reused; strings compare by code point and
 * case-sensitively; `null` sorts before every value in ascending order; `update` writes only
 * the fields it is given.
 *
 * @example
 * ```ts
 * const store = memoryStore().collection(schema);
 * const book = await store.create({ name: 'Dune', author: 'Herbert' });
 * await store.update(book.id, { name: 'Dune Messiah' }, []);
 * ```
 */
export interface Store<R extends StoredRecord = StoredRecord> {
  readonly schema: CollectionSchema;
  /** Lists records; filtering, ordering, paging and counting happen in the store. */
  findMany(query: FindManyQuery): Promise<FindManyResult<R>>;
  /** The record with this id that also matches `where`, or `undefined`. */
  findOne(id: number, where: readonly Condition[]): Promise<R | undefined>;
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
   * Runs `work` in a transaction: everything done through the store it receives is committed
   * together when `work` resolves and undone when it rejects.
   */
  transaction<T>(work: (store: Store<R>) => Promise<T>): Promise<T>;
}

/**
 * A database (or the memory) that holds the collections of several resources.
 *
 * @example
 * ```ts
 * const db: StoreProvider = memoryStore();
 * const books = db.collection(booksSchema);
 * ```
 */
export interface StoreProvider {
  /** The store for one resource's records; called once per resource when the handler is built. */
  collection(schema: CollectionSchema): Store;
  /** Prepares the provider (connects, creates tables...); called once before serving. */
  init?(schemas: readonly CollectionSchema[]): Promise<void>;
  /** Releases connections. */
  close?(): Promise<void>;
}
