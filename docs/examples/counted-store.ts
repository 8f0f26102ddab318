// A store of your own (docs/stores.md): this one wraps another store and counts the calls each
// collection receives, for metrics. It implements Store and Collection by delegation.
import type { Collection, CollectionSchema, Store, StoreTransaction } from '@resourcery/core/store';

/** Calls per collection and operation: `calls.get('books')?.list`. */
export type Calls = Map<string, Record<string, number>>;

export function countedStore(inner: Store, calls: Calls = new Map()): Store {
  const count = (schema: CollectionSchema, operation: string) => {
    const counts = calls.get(schema.name) ?? {};
    counts[operation] = (counts[operation] ?? 0) + 1;
    calls.set(schema.name, counts);
  };
  const counted = (collection: Collection): Collection => {
    const { schema, aggregate } = collection;
    return {
      schema,
      list(query) {
        count(schema, 'list');
        return collection.list(query);
      },
      find(id, where) {
        count(schema, 'find');
        return collection.find(id, where);
      },
      create(values) {
        count(schema, 'create');
        return collection.create(values);
      },
      update(id, changes, where) {
        count(schema, 'update');
        return collection.update(id, changes, where);
      },
      destroy(id, where) {
        count(schema, 'destroy');
        return collection.destroy(id, where);
      },
      // Optional (statistics need it): there only when the inner store has it.
      ...(aggregate && {
        aggregate(query) {
          count(schema, 'aggregate');
          return aggregate.call(collection, query);
        },
      }),
      // Inside a transaction, the calls go through the collection the transaction gives.
      transaction: (work) => collection.transaction((tx) => work(counted(tx))),
      // The API learns of the inner store's retries of a request's writes through it.
      ...(collection.reportingRetries && {
        reportingRetries: (listener) => counted(collection.reportingRetries?.(listener) ?? collection),
      }),
      // A write action reads from the inner store's primary (read replicas) through it.
      ...(collection.primary && { primary: () => counted(collection.primary?.() ?? collection) }),
    };
  };
  const countedTransaction = (tx: StoreTransaction): StoreTransaction => ({
    collection: (schema) => counted(tx.collection(schema)),
    transaction: (work) => tx.transaction((nested) => work(countedTransaction(nested))),
    // Passed on, so that a hook's ctx.sideEffect() keeps the inner store from running the work again.
    sideEffect: () => tx.sideEffect?.(),
  });
  return {
    collection: (schema) => counted(inner.collection(schema)),
    // The options too: isolation, retry: false, onRetry.
    transaction: (work, options) => inner.transaction((tx) => work(countedTransaction(tx)), options),
    init: inner.init?.bind(inner),
    close: inner.close?.bind(inner),
    secret: inner.secret?.bind(inner),
  };
}
