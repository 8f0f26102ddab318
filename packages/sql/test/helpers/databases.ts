import type { CollectionSchema } from '@resourcery/core/store';
import { redactUrl, type SqlStoreOptions, type SqlStoreProvider, sqlStore } from '@resourcery/sql';
import type { StoreProviderOptions } from '@resourcery/testing/suites';
import { sql } from 'kysely';
import { inject, it } from 'vitest';
import { dialectNamed } from '../../src/dialects/index.js';
import { dropKeptCountSql } from '../../src/query/kept-count.js';

/** The database servers the tests use, located by environment variables. */
export const SERVERS = {
  postgres: { label: 'PostgreSQL', url: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
  mariadb: { label: 'MariaDB', url: process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test' },
  /** PgBouncer in transaction mode in front of the PostgreSQL above (.ci/pgbouncer.ini), as a pooled store opens it. */
  pgbouncer: {
    label: 'PgBouncer',
    url: process.env.PGBOUNCER_URL ?? 'postgres://postgres@127.0.0.1:6432/test?preparedStatements=false',
  },
  /** A streaming replica of the PostgreSQL above (.ci/replica.sh): hot standby, read-only. */
  replica: {
    label: 'PostgreSQL replica',
    url: process.env.PG_REPLICA_URL ?? 'postgres://postgres@127.0.0.1:5433/test',
  },
} as const;

export type ServerName = keyof typeof SERVERS;

declare module 'vitest' {
  export interface ProvidedContext {
    /** Which servers answered the global setup's ping. */
    reachableServers: Record<ServerName, boolean>;
  }
}

/** Connects and runs `select 1`; answers why it failed, or `undefined` when the server answered. */
export async function ping(url: string): Promise<string | undefined> {
  const store = sqlStore(url, { connectTimeoutMs: 3000 });
  try {
    await sql`select 1`.execute(store.db);
    return undefined;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause ?? error;
    return cause instanceof Error ? cause.message || cause.name : String(cause);
  } finally {
    await store.close().catch(() => {});
  }
}

/** The one line printed when a server is skipped. */
export function skipLine(name: ServerName, reason: string): string {
  const { label, url } = SERVERS[name];
  return `[resourcery] ${label} not reachable at ${redactUrl(url)} (${reason}): skipping its suites (set CI=true to make this fail)`;
}

/**
 * Whether a test file may use a server (the global setup pinged it once for the whole run).
 * When it is unreachable under `CI=true`, registers a failing test instead: CI must not pass
 * with a database suite silently skipped.
 *
 * @example
 * ```ts
 * if (serverAvailable('postgres')) storeConformanceSuite('postgres', () => sqlStore(SERVERS.postgres.url));
 * ```
 */
export function serverAvailable(name: ServerName): boolean {
  const available = inject('reachableServers')[name];
  if (available) return true;
  const { label, url } = SERVERS[name];
  const title = `${label} is reachable at ${redactUrl(url)}`;
  if (process.env.CI === 'true') {
    it(title, () => {
      throw new Error(`${label} is not reachable at ${redactUrl(url)} and CI=true: start it (see .ci/run)`);
    });
  } else {
    it.skip(title, () => {}); // a file without any test would fail
  }
  return false;
}

/**
 * Wraps a provider so that `close` first drops the tables its collections created (and its table
 * of secrets): test runs on a shared server leave nothing behind.
 */
export function droppingTables(provider: SqlStoreProvider, tablePrefix = ''): SqlStoreProvider {
  // The store's own table of secrets too, made if something asked for one (`secret(name)`).
  const tables = new Set<string>([`${tablePrefix}resourcery_secrets`]);
  // A kept count's table and trigger functions (PostgreSQL), which no table's drop takes along.
  const kept = new Map<string, CollectionSchema>();
  return Object.assign(Object.create(provider) as SqlStoreProvider, {
    async init(schemas: readonly CollectionSchema[]) {
      // The change log's tables, made when a schema is live.
      if (schemas.some((schema) => schema.live)) {
        tables.add(`${tablePrefix}resourcery_changes`).add(`${tablePrefix}resourcery_changes_state`);
      }
      return provider.init(schemas);
    },
    collection(schema: CollectionSchema) {
      tables.add(`${tablePrefix}${schema.name}`);
      // The words table of a searchable collection on MySQL/MariaDB refers to it: dropped first.
      if (schema.search) tables.add(`${tablePrefix}${schema.name}__words`);
      if (schema.keepCount) kept.set(`${tablePrefix}${schema.name}`, schema);
      return provider.collection(schema);
    },
    async close() {
      // Tables referring to others go first: the latest made, and any left by a refused drop.
      let left = [...tables].reverse();
      for (let round = 0; left.length > 0 && round < 5; round++) {
        const refused: string[] = [];
        for (const table of left) {
          await provider.db.schema
            .dropTable(table)
            .ifExists()
            .execute()
            .catch(() => refused.push(table));
        }
        left = refused;
      }
      const dialect = dialectNamed(provider.dialect);
      for (const [table, schema] of kept) {
        for (const statement of dropKeptCountSql(schema, table, dialect)) await sql.raw(statement).execute(provider.db);
      }
      await provider.close();
    },
  });
}

/**
 * The factory of a store suite's run on a server: the store under test (its tables prefixed
 * with `tablePrefix`, so that runs sharing the server never share a change log), and, when a
 * case asks for options, another one with its own prefix, dropped when the case closes it.
 *
 * @example
 * ```ts
 * storeConformanceSuite('MariaDB', suiteStores(SERVERS.mariadb.url, 'mdb_'));
 * ```
 */
export function suiteStores(
  url: string,
  tablePrefix: string,
  options: SqlStoreOptions = {},
): (more?: StoreProviderOptions) => SqlStoreProvider {
  let main: SqlStoreProvider | undefined;
  let others = 0;
  const run = Math.random().toString(36).slice(2, 6);
  return (more) => {
    if (!more) {
      main ??= droppingTables(sqlStore(url, { ...options, tablePrefix }), tablePrefix);
      return main;
    }
    const prefix = `${tablePrefix}o${run}${++others}_`;
    const changes = { ...options.changes, retentionMs: more.changeRetentionMs };
    return droppingTables(sqlStore(url, { ...options, changes, tablePrefix: prefix }), prefix);
  };
}

/** A database the behaviour tests run on. */
export interface TestDatabase {
  readonly label: string;
  /** A store over empty tables (a new file, or fresh table names dropped on close). */
  readonly open: (options?: Omit<SqlStoreOptions, 'tablePrefix'>) => { store: SqlStoreProvider; tablePrefix: string };
}

/** SQLite (always), then PostgreSQL and MariaDB when they are reachable (see {@link serverAvailable}). */
export function testDatabases(folder: string): TestDatabase[] {
  let opened = 0;
  const run = Math.random().toString(36).slice(2, 8);
  const list: TestDatabase[] = [
    {
      label: 'SQLite',
      open: (options) => ({ store: sqlStore(`sqlite:${folder}/${++opened}.sqlite`, options), tablePrefix: '' }),
    },
  ];
  for (const name of ['postgres', 'mariadb'] as const) {
    if (!serverAvailable(name)) continue;
    list.push({
      label: SERVERS[name].label,
      open: (options) => {
        const tablePrefix = `t${run}_${++opened}_`;
        const store = droppingTables(sqlStore(SERVERS[name].url, { ...options, tablePrefix }), tablePrefix);
        return { store, tablePrefix };
      },
    });
  }
  return list;
}
