import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Kysely, MysqlDialect, type MysqlPool, PostgresDialect, SqliteDialect } from 'kysely';
import type { SqlDialect } from './dialect.js';

/** How connections are made for a URL (ignored for a Kysely instance, which has its own). */
export interface ConnectionOptions {
  /** Most connections each pool opens (PostgreSQL, MySQL/MariaDB). Default: 10. */
  readonly poolSize?: number;
  /**
   * How long to wait for a new connection before the request fails with 503 (PostgreSQL,
   * MySQL/MariaDB). Default: 5000 ms.
   */
  readonly connectTimeoutMs?: number;
  /** SQLite: how long a statement waits for another process's lock before 503. Default: 5000 ms. */
  readonly busyTimeoutMs?: number;
}

/** What a database URL names: the dialect and where the database is. */
export interface DatabaseLocation {
  readonly dialect: SqlDialect;
  /** A file path or `:memory:` for SQLite, a driver connection URL otherwise. */
  readonly location: string;
}

/**
 * Reads a database URL: `sqlite:<path>` (relative to the working directory, `sqlite:///abs`
 * also accepted), `sqlite::memory:`, `postgres://…` or `postgresql://…`, `mysql://…`,
 * `mariadb://…`.
 *
 * @example
 * ```ts
 * parseDatabaseUrl('sqlite:data/books.sqlite'); // { dialect: 'sqlite', location: 'data/books.sqlite' }
 * ```
 */
export function parseDatabaseUrl(url: string): DatabaseLocation {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  const rest = url.slice((scheme?.length ?? 0) + 1);
  switch (scheme) {
    case 'sqlite': {
      const path = rest.startsWith('//') ? rest.slice(2) : rest;
      return { dialect: 'sqlite', location: path === '' ? ':memory:' : path };
    }
    case 'postgres':
    case 'postgresql':
      return { dialect: 'postgres', location: url };
    case 'mysql':
      return { dialect: 'mysql', location: url };
    case 'mariadb':
      return { dialect: 'mariadb', location: `mysql:${rest}` };
    default:
      throw new TypeError(
        `Unsupported database URL "${redactUrl(url)}": use sqlite:<path>, postgres://…, mysql://… or mariadb://…`,
      );
  }
}

/**
 * The URL with its password masked, for logs and start-up messages.
 *
 * @example
 * ```ts
 * redactUrl('postgres://app:secret@db/books'); // 'postgres://app:***@db/books'
 * ```
 */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

async function openSqlite(path: string, options: ConnectionOptions) {
  const { default: Database } = await import('better-sqlite3');
  if (path !== ':memory:') {
    try {
      mkdirSync(dirname(resolve(path)), { recursive: true });
    } catch {
      // Opening the file reports it (SQLITE_CANTOPEN, a 503 until the folder can be written).
    }
  }
  const db = new Database(path, { timeout: options.busyTimeoutMs ?? 5000 });
  try {
    db.pragma('journal_mode = WAL'); // readers never wait for the writer
    db.pragma('synchronous = FULL'); // a write answered 200 survives a crash of the machine, not only of the process
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

async function openPostgres(url: string, options: ConnectionOptions) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
  });
  // pg emits 'error' when the server drops a connection, on the pool for idle clients and on the
  // client itself when it is checked out; without listeners either would kill the process. The
  // query in flight fails (503), the broken client leaves the pool, the next query reconnects.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

async function openMysql(url: string, options: ConnectionOptions): Promise<MysqlPool> {
  const mysql = await import('mysql2');
  const createPool = mysql.createPool ?? (mysql as unknown as { default: typeof mysql }).default.createPool;
  // mysql2 drops a connection from its pool when it fails; new ones are made on demand.
  return createPool({
    uri: url,
    connectionLimit: options.poolSize ?? 10,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    charset: 'utf8mb4',
    enableKeepAlive: true,
  }) as unknown as MysqlPool;
}

/**
 * Opens a database named by a URL as a Kysely instance. Nothing connects yet: the driver is
 * loaded (only the one the URL needs must be installed) and the pool created on first use, and
 * a failed start is tried again by the next query.
 *
 * @example
 * ```ts
 * const { db, dialect } = openDatabase('postgres://postgres@127.0.0.1/books');
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
export function openDatabase(url: string, options: ConnectionOptions = {}): { db: Kysely<any>; dialect: SqlDialect } {
  const { dialect, location } = parseDatabaseUrl(url);
  switch (dialect) {
    case 'sqlite':
      return {
        dialect,
        db: new Kysely({ dialect: new SqliteDialect({ database: () => openSqlite(location, options) }) }),
      };
    case 'postgres':
      return {
        dialect,
        db: new Kysely({ dialect: new PostgresDialect({ pool: () => openPostgres(location, options) }) }),
      };
    case 'mysql':
    case 'mariadb':
      return { dialect, db: new Kysely({ dialect: new MysqlDialect({ pool: () => openMysql(location, options) }) }) };
  }
}
