// The interfaces a store implements, as @resourcery/core/store declares them (docs/stores.md),
// without their long comments. store-interfaces.test.ts stops compiling when they differ.
import type { CollectionSchema, Id, Scalar, StoredRecord } from '@resourcery/core/store';

/** One condition; a query's conditions are ANDed. */
export interface Condition {
  readonly field: string;
  /** Without `op`: `field IN (values)` (`null` among them matches no value). With `op`: its one operand. */
  readonly values: readonly Scalar[];
  readonly op?: 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'prefix' | 'contains' | 'null';
  /** `field` holds the id (or the `key` attribute) of a record of `collection` matching `where` (a relation filter). */
  readonly related?: {
    readonly collection: string;
    readonly where: readonly Condition[];
    /** The attribute of `collection` that `field` holds; `id` when absent. */
    readonly key?: string;
  };
  /** `q=`: every one of `words` (folded by `searchWords`) begins a word of one of `fields`. */
  readonly search?: { readonly fields: readonly string[]; readonly words: readonly string[] };
}

export interface Order {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

export interface ListQuery {
  readonly where: readonly Condition[];
  readonly order: readonly Order[]; // complete: always ends with `id`
  readonly limit: number;
  readonly offset: number;
  readonly count: boolean | 'estimated'; // whether `total` is wanted; 'estimated': exact up to `estimateAbove`, then may be estimated
  readonly estimateAbove?: number; // with count 'estimated': the most matches counted exactly (default 10,000)
  readonly perGroup?: { readonly field: string; readonly limit: number }; // the first `limit` of each `field` value
  readonly after?: readonly Scalar[]; // keyset: the records after this position in `order`, instead of `offset`
  readonly select?: readonly string[]; // the attributes needed (`id` always comes); all when absent
}

export interface ListResult<R = StoredRecord> {
  readonly records: R[];
  readonly total?: number;
  readonly estimated?: true; // `total` is an estimate (count 'estimated', more than `estimateAbove` matches)
}

/** Statistics: the records matching `where`, grouped by 0 to 3 attributes (docs/statistics.md). */
export interface AggregateQuery {
  readonly where: readonly Condition[];
  readonly group: readonly string[];
  readonly sum: readonly string[]; // integer and decimal attributes
  readonly min: readonly string[]; // also date and date-time attributes
  readonly max: readonly string[];
  readonly limit: number; // the most groups to answer
}

/** One group, its values in the query's order; sums exact (decimals as text with their scale). */
export interface AggregateRow {
  readonly group: readonly Scalar[];
  readonly count: number;
  readonly sum: readonly Scalar[];
  readonly min: readonly Scalar[];
  readonly max: readonly Scalar[];
}

export interface Collection<R extends { id: Id } = StoredRecord> {
  readonly schema: CollectionSchema;
  list(query: ListQuery): Promise<ListResult<R>>;
  find(id: Id, where: readonly Condition[]): Promise<R | undefined>;
  create(values: Readonly<Partial<R>>): Promise<R>;
  createMany?(values: readonly Readonly<Partial<R>>[]): Promise<R[]>; // optional: one statement for a bulk create
  update(id: Id, changes: Readonly<Partial<R>>, where: readonly Condition[]): Promise<R | undefined>;
  destroy(id: Id, where: readonly Condition[]): Promise<boolean>;
  transaction<T>(work: (collection: Collection<R>) => Promise<T>): Promise<T>;
  aggregate?(query: AggregateQuery): Promise<AggregateRow[]>; // optional: needed by `stats`
  reportingRetries?(listener: (retry: StoreRetry) => void): Collection<R>; // optional: a store that retries
  primary?(): Collection<R>; // optional: a store with read replicas (a write action reads from the primary)
}

export interface StoreTransaction {
  collection(schema: CollectionSchema): Collection;
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  sideEffect?(): void; // optional: `work` did something outside the store, never run it again
}

/** A conflict the database aborted a transaction (or a write) for, and the store's next attempt. */
export interface StoreRetry {
  readonly scope: 'transaction' | 'statement';
  readonly attempt: number; // 2 for the first retry
  readonly delayMs: number;
  readonly code: string; // SQLSTATE: 40001, 40P01
  readonly collection?: string; // a statement's
}

export interface TransactionOptions {
  readonly isolation?: 'read committed' | 'repeatable read' | 'serializable';
  readonly retry?: boolean; // false: never run `work` again after a conflict
  readonly onRetry?: (retry: StoreRetry) => void;
}

export interface Store {
  collection(schema: CollectionSchema): Collection; // once per resource, when the API is built
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>, options?: TransactionOptions): Promise<T>; // over every collection
  init?(schemas: readonly CollectionSchema[]): Promise<void>; // before serving; again after a failure
  close?(): Promise<void>;
  secret?(name: string): Promise<string>; // the same random value for every process (see "Secrets")
  changes?(): ChangeLog; // the committed changes of live collections (see "Change log")
}

// One committed change of a record of a collection whose schema says `live: true`.
export interface Change {
  readonly seq: number; // increasing in commit order, never reused
  readonly collection: string;
  readonly kind: 'created' | 'updated' | 'destroyed';
  readonly id: Id;
  readonly before: StoredRecord | null;
  readonly after: StoredRecord | null;
}

export interface ChangeLog {
  read(after: number, limit: number): Promise<readonly Change[] | 'gone'>;
  head(): Promise<number>;
  watch(wake: () => void): () => void; // wakes on commits, here or in another process
  readonly retentionMs: number;
  epoch(): Promise<string>;
}
