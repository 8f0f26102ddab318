import type { CollectionSchema } from '../schema/types.js';
import type { Collection } from './store.js';

/**
 * The isolation level a transaction asks for; the database's default when none is given
 * (SQLite: serializable, whatever is asked; PostgreSQL: read committed; InnoDB: repeatable read).
 *
 * @example
 * ```ts
 * const isolation: Isolation = 'serializable';
 * ```
 */
export type Isolation = 'read committed' | 'repeatable read' | 'serializable';

/**
 * One retry of a store: the database aborted a transaction (or a write outside any) to settle a
 * conflict with another one (a serialization failure, a deadlock), and the store runs it again
 * after a pause. Told to a transaction's `onRetry`, a collection's `reportingRetries` listener,
 * and the store's own listener if it has one.
 *
 * @example
 * ```ts
 * const retry: StoreRetry = { scope: 'transaction', attempt: 2, delayMs: 7, code: '40P01' };
 * ```
 */
export interface StoreRetry {
  /** What runs again: a transaction's whole work, or one write outside a transaction (its statements). */
  readonly scope: 'transaction' | 'statement';
  /** The attempt about to run: 2 for the first retry. */
  readonly attempt: number;
  /** The pause before it, in milliseconds. */
  readonly delayMs: number;
  /** The SQLSTATE of the conflict: `40001` (a serialization failure, or a MySQL/MariaDB deadlock), `40P01` (a PostgreSQL deadlock). */
  readonly code: string;
  /** The collection of a statement's retry. */
  readonly collection?: string;
}

/**
 * How {@link StoreTransaction}s begin and whether they may run again: what `store.transaction`
 * takes after its work.
 *
 * @example
 * ```ts
 * await store.transaction(work, { isolation: 'serializable', onRetry: (retry) => metrics.increment('retries') });
 * await store.transaction(chargeAndRecord, { retry: false }); // it calls a payment service
 * ```
 */
export interface TransactionOptions {
  /** The isolation level to begin with (see {@link Isolation}). */
  readonly isolation?: Isolation;
  /**
   * Whether the store may run `work` again, from the start on a new transaction, when the
   * database aborts the transaction to settle a conflict (stores that retry: the SQL stores, on
   * PostgreSQL, MySQL and MariaDB). `false` for work that does anything outside the store: it
   * then fails at once (503). Default: `true`.
   */
  readonly retry?: boolean;
  /** Told of each retry, before its pause (errors it throws are ignored). */
  readonly onRetry?: (retry: StoreRetry) => void;
}

/**
 * The collections of a store inside one transaction: everything written through them commits
 * together or not at all. Nested transactions undo only their own writes when they fail.
 *
 * @example
 * ```ts
 * await store.transaction(async (tx) => {
 *   const book = await tx.collection(books).create({ title: 'Dune' });
 *   await tx.collection(audits).create({ action: 'create', bookId: book.id });
 * });
 * ```
 */
export interface StoreTransaction {
  /** The collection of one resource, bound to this transaction. */
  collection(schema: CollectionSchema): Collection;
  /** A nested transaction (a savepoint in SQL); never run again on its own, its outermost one is. */
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /**
   * Says that the work of this transaction did something outside the store (sent a mail, called
   * a service): a store that retries will not run the (outermost) transaction again, so that it
   * is not done twice; a conflict then fails it (503). Stores that never retry may leave it out.
   */
  sideEffect?(): void;
}
