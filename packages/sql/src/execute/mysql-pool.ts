import { CompiledQuery, MysqlDialect, type MysqlPool } from 'kysely';
import type { ConnectionOptions } from '../dialects/dialect.js';

/** The code of the error a request gets when no connection of the pool came within `connectTimeoutMs`. */
export const POOL_TIMEOUT = 'RESOURCERY_POOL_TIMEOUT';

/**
 * The pool with a bound on the wait for one of its connections, which mysql2 does not have (its
 * `connectTimeout` is the TCP connect only): past `waitMs` the request fails (a 503), and the
 * connection that comes later goes back to the pool at once.
 */
function bounded(pool: MysqlPool, waitMs: number): MysqlPool {
  return {
    getConnection(callback) {
      let waiting = true;
      const timer = setTimeout(() => {
        waiting = false;
        const error = Object.assign(new Error(`No connection of the pool came within ${waitMs} ms`), {
          code: POOL_TIMEOUT,
        });
        callback(error, undefined as never);
      }, waitMs);
      pool.getConnection((error, connection) => {
        if (!waiting) {
          if (!error) connection.release();
          return;
        }
        waiting = false;
        clearTimeout(timer);
        callback(error, connection);
      });
    },
    end: (callback) => pool.end(callback),
  };
}

/**
 * Bytes of a string a sort compares: the longest string the contract's examples sort on (20,000
 * characters of 4 bytes) with room to spare. Larger values than this need a larger sort buffer
 * (the server answers "Out of sort memory" when a row's key does not fit).
 */
const MOST_SORT_LENGTH = 81920;

/**
 * The statement every new connection runs first: lock waits bounded by `lockTimeoutMs`, in
 * whole seconds (rounded up; at least 1), and sorts that compare whole strings: by default
 * MySQL and MariaDB sort on the first 1,024 bytes only (`max_sort_length`), so long values that
 * share those bytes would come out in another order than `WHERE` compares them (a keyset page
 * would repeat or skip records).
 *
 * @example
 * ```ts
 * sessionSettings({ lockTimeoutMs: 1500 }); // 'SET SESSION innodb_lock_wait_timeout = 2, lock_wait_timeout = 2, max_sort_length = 81920'
 * ```
 */
export function sessionSettings(options: ConnectionOptions): string {
  const seconds = Math.max(1, Math.ceil((options.lockTimeoutMs ?? 5000) / 1000));
  // InnoDB row locks, and metadata locks (a table another session has locked, DDL).
  return `SET SESSION innodb_lock_wait_timeout = ${seconds}, lock_wait_timeout = ${seconds}, max_sort_length = ${MOST_SORT_LENGTH}`;
}

/**
 * A mysql2 pool for the URL, as the store needs it (`utf8mb4`, dates as text, JSON as text), with
 * the wait for a connection bounded by `connectTimeoutMs`.
 *
 * @example
 * ```ts
 * new MysqlDialect({ pool: () => openMysql('mysql://root@127.0.0.1/books', { poolSize: 10 }) });
 * ```
 */
async function openMysql(url: string, options: ConnectionOptions): Promise<MysqlPool> {
  const mysql2 = await import('mysql2');
  const createPool = mysql2.createPool ?? (mysql2 as unknown as { default: typeof mysql2 }).default.createPool;
  // mysql2 drops a connection from its pool when it fails; new ones are made on demand.
  const pool = createPool({
    uri: url,
    connectionLimit: options.poolSize ?? 10,
    connectTimeout: options.connectTimeoutMs ?? 5000,
    charset: 'utf8mb4',
    enableKeepAlive: true,
    // DATETIME and DATE as their text, never a Date in the machine's time zone; JSON as text,
    // parsed by the store (MariaDB's and MySQL's alike).
    dateStrings: true,
    timezone: 'Z',
    jsonStrings: true,
  }) as unknown as MysqlPool;
  return bounded(pool, options.connectTimeoutMs ?? 5000);
}

/**
 * The Kysely dialect of the store's own MySQL or MariaDB pool, opened (and mysql2 loaded) on
 * first use; every new connection runs {@link sessionSettings} first.
 *
 * @example
 * ```ts
 * const db = new Kysely({ dialect: mysqlDialect('mysql://root@127.0.0.1/books', { poolSize: 10 }) });
 * ```
 */
export function mysqlDialect(url: string, options: ConnectionOptions): MysqlDialect {
  return new MysqlDialect({
    pool: () => openMysql(url, options),
    onCreateConnection: async (connection) => {
      await connection.executeQuery(CompiledQuery.raw(sessionSettings(options)));
    },
  });
}
