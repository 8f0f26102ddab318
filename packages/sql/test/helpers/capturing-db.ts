import Database from 'better-sqlite3';
import { type CompiledQuery, Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { SERVERS } from './databases.js';

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
