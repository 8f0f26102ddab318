import type { Collection, Store } from '@resourcery/core';
import type { LogEvent } from 'kysely';

// What the query-counting tests share (the library's include=, the tracker's labels): a store
// whose collections count their list and find calls (the memory store), and a Kysely log that
// counts the statements a database runs (the SQL stores).

/** The calls or statements counted, reset by the test before each request. */
export interface Counter {
  queries: number;
  statements: string[];
}

/**
 * Every method and property of `target` (its class's too), methods bound to it: a wrapper that
 * overrides some forwards all the others, optional ones (`aggregate`, `secret`) included.
 */
function forwarding<T extends object>(target: T): Record<string, unknown> {
  const forwarded: Record<string, unknown> = {};
  for (let from: object | null = target; from && from !== Object.prototype; from = Object.getPrototypeOf(from)) {
    for (const key of Object.getOwnPropertyNames(from)) {
      if (key === 'constructor' || key in forwarded) continue;
      const value = (target as Record<string, unknown>)[key];
      forwarded[key] = typeof value === 'function' ? value.bind(target) : value;
    }
  }
  return forwarded;
}

/** `store`, with every list and find of its collections counted in `counter`. */
export function countingStore(store: Store, counter: Counter): Store {
  const count = (collection: Collection): Collection => {
    const counted =
      (name: 'list' | 'find') =>
      (...args: unknown[]) => {
        counter.queries++;
        counter.statements.push(`${collection.schema.name}.${name}`);
        return (collection[name] as (...a: unknown[]) => unknown).apply(collection, args);
      };
    return { ...forwarding(collection), list: counted('list'), find: counted('find') } as unknown as Collection;
  };
  return { ...forwarding(store), collection: (schema) => count(store.collection(schema)) } as Store;
}

/** A Kysely `log` that counts every statement the database runs (and every one that fails). */
export function countingLog(counter: Counter): (event: LogEvent) => void {
  return (event) => {
    counter.queries++;
    counter.statements.push(event.query.sql);
  };
}
