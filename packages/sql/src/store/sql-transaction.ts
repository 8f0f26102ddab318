import type { Collection, CollectionSchema, StoreTransaction } from '@resourcery/core/store';
import { collectionOn, type LiveContext } from '../changes/live-collection.js';
import type { CollectionPlan, Db } from './collection-plan.js';
import { inTransaction, type OpenTransaction } from './run-transaction.js';

/**
 * The collections of a SQL store inside one transaction, each made once per schema and bound to
 * the transaction's connection.
 *
 * @example
 * ```ts
 * await store.transaction(async (tx) => {
 *   const author = await tx.collection(authors).create({ name: 'Le Guin' });
 *   await tx.collection(books).create({ title: 'The Dispossessed', authorId: author.id });
 * });
 * ```
 */
export class SqlStoreTransaction implements StoreTransaction {
  readonly #collections = new Map<CollectionSchema, Collection>();

  constructor(
    readonly db: Db,
    readonly open: OpenTransaction,
    private readonly plan: (schema: CollectionSchema) => CollectionPlan,
    private readonly translate: (error: unknown) => unknown,
    /** The store's change log, for its live collections. */
    private readonly live?: LiveContext,
  ) {}

  collection(schema: CollectionSchema): Collection {
    let collection = this.#collections.get(schema);
    if (!collection) {
      collection = collectionOn(this.plan(schema), this.db, this.live, this.open);
      this.#collections.set(schema, collection);
    }
    return collection;
  }

  transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return inTransaction(this.db, this.open, () => work(this), this.translate);
  }

  /** The outermost transaction did something outside the database: it is never run again. */
  sideEffect(): void {
    this.open.sideEffects = true;
  }
}
