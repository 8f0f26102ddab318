import { join } from 'node:path';
import { memoryStore } from '@resourcery/core';
import { type Collection, type Store } from '@resourcery/core/store';
import { type SqlStoreProvider, sqlStore } from '@resourcery/sql';
import Database from 'better-sqlite3';
import { type Dialect, Kysely, type LogEvent, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { SERVERS, serverAvailable } from './databases.js';

// What the query-counting tests share (the library's include=, the tracker's labels): a store
// whose collections count their list and find calls (the memory store), a Kysely log that counts
// the statements a database runs (the SQL stores), and the counted stores themselves.

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

/** A store whose queries are counted, and what to release after. */
export interface CountedStore {
  readonly store: Store;
  readonly counter: Counter;
  readonly release?: () => Promise<void>;
}

/** How a test keeps its tables on a database server apart, and drops them. */
export interface ServerTables {
  /** A table prefix no other test uses. */
  readonly prefix: () => string;
  /** The store, dropping its tables when it closes. */
  readonly dropping: (store: SqlStoreProvider, prefix: string) => Store;
}

/**
 * The counted stores of a query-counting test, by label: the memory store (its list and find
 * calls), SQLite in a file `name` of `folder`, and PostgreSQL and MariaDB when they answer (the
 * statements Kysely runs, on tables of their own).
 */
export function countedStores(folder: string, name: string, tables: ServerTables): [string, () => CountedStore][] {
  const fresh = () => ({ queries: 0, statements: [] as string[] });
  const onServer = (dialect: Dialect, counter: Counter): CountedStore => {
    const db = new Kysely({ dialect, log: countingLog(counter) });
    const tablePrefix = tables.prefix();
    return { store: tables.dropping(sqlStore(db, { tablePrefix }), tablePrefix), counter, release: () => db.destroy() };
  };
  const stores: [string, () => CountedStore][] = [
    [
      'memory store',
      () => {
        const counter = fresh();
        return { store: countingStore(memoryStore(), counter), counter };
      },
    ],
    [
      'SQLite',
      () => {
        const counter = fresh();
        const database = new Database(join(folder, name));
        database.pragma('foreign_keys = ON');
        const db = new Kysely({ dialect: new SqliteDialect({ database }), log: countingLog(counter) });
        return { store: sqlStore(db), counter, release: () => db.destroy() };
      },
    ],
  ];
  if (serverAvailable('postgres')) {
    stores.push([
      'PostgreSQL',
      () => {
        const pool = new pg.Pool({ connectionString: SERVERS.postgres.url, max: 4 });
        return onServer(new PostgresDialect({ pool }), fresh());
      },
    ]);
  }
  if (serverAvailable('mariadb')) {
    stores.push([
      'MariaDB',
      () => {
        // As the SQL store opens its own: DATETIME as text in UTC, JSON as text.
        const options = { charset: 'utf8mb4', dateStrings: true, timezone: 'Z', jsonStrings: true } as const;
        const pool = createPool({ uri: SERVERS.mariadb.url, connectionLimit: 4, ...options });
        return onServer(new MysqlDialect({ pool }), fresh());
      },
    ]);
  }
  return stores;
}
