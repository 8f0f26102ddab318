import { type SqlStoreProvider, sqlStore } from '@resourcery/sql';
import Database from 'better-sqlite3';
import { type CompiledQuery, Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { droppingTables, SERVERS } from './databases.js';

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
type Db = Kysely<any>;

/**
 * A Kysely instance of the test's own on one connection (SQLite in memory, or the test server of
 * PostgreSQL or MariaDB) that keeps every statement it runs in `captured`, for tests that read a
 * statement's plan.
 *
 * @example
 * ```ts
 * const { db, captured } = capturingDb('postgres');
 * ```
 */
export function capturingDb(database: 'sqlite' | 'postgres' | 'mariadb'): { db: Db; captured: CompiledQuery[] } {
  const captured: CompiledQuery[] = [];
  const dialect =
    database === 'sqlite'
      ? new SqliteDialect({ database: new Database(':memory:') })
      : database === 'postgres'
        ? new PostgresDialect({ pool: new pg.Pool({ connectionString: SERVERS.postgres.url, max: 1 }) })
        : new MysqlDialect({ pool: createPool({ uri: SERVERS.mariadb.url, connectionLimit: 1, dateStrings: true }) });
  const db = new Kysely({ dialect, log: (event) => void (event.level === 'query' && captured.push(event.query)) });
  return { db, captured };
}

/**
 * Runs `test` on a SQL store over a {@link capturingDb} of `database`, on tables of its own (a
 * random prefix, `tables`), dropped and closed after.
 *
 * @example
 * ```ts
 * await onCapturingStore('postgres', async ({ db, captured, store, tables }) => { await store.init([schema]); });
 * ```
 */
export async function onCapturingStore(
  database: 'sqlite' | 'postgres' | 'mariadb',
  test: (found: { db: Db; captured: CompiledQuery[]; store: SqlStoreProvider; tables: string }) => Promise<void>,
): Promise<void> {
  const { db, captured } = capturingDb(database);
  const tables = `t${Math.random().toString(36).slice(2, 8)}_`;
  const store = droppingTables(sqlStore(db, { tablePrefix: tables }), tables);
  try {
    await test({ db, captured, store, tables });
  } finally {
    await store.close();
    await db.destroy().catch(() => {});
  }
}
