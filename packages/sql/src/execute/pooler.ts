/**
 * What a transaction pooler in front of PostgreSQL (PgBouncer in `pool_mode = transaction`,
 * Supavisor, Neon's pooler) does to a store that keeps state on its connections, told in words
 * that name the fix. Such a pooler hands each transaction, and each statement outside one, to
 * any of its server connections: PgBouncer refuses the settings a client sends when it connects
 * that it does not carry over to its server connections itself (`lock_timeout`), and a statement
 * prepared on one server connection is missing on the next (or already there for another client).
 */
import type { DriverError } from '../dialects/dialect.js';

/** The option of a PostgreSQL store behind a transaction pooler (part of `ConnectionOptions`). */
export interface PoolerOptions {
  /**
   * PostgreSQL: `false` for a transaction pooler in front of the server (PgBouncer in
   * `pool_mode = transaction`, Supavisor, Neon's pooler), which hands each transaction, and each
   * statement outside one, to any server connection. The store then keeps nothing on a
   * connection: no named prepared statements (each statement is parsed and planned at each run),
   * no settings sent when connecting (so no `lockTimeoutMs`: set `lock_timeout` on the role
   * instead, `ALTER ROLE app SET lock_timeout = '5s'`). Also `?preparedStatements=false` in the
   * URL. Default: `true`. See docs/deployment.md, "Behind PgBouncer".
   *
   * @example
   * ```ts
   * sqlStore('postgres://app@pgbouncer:6432/books', { preparedStatements: false });
   * sqlStore('postgres://app@pgbouncer:6432/books?preparedStatements=false'); // the same
   * ```
   */
  readonly preparedStatements?: boolean;
}

const FIX = 'open the store with preparedStatements: false (or add ?preparedStatements=false to the database URL)';

/** The store's own statement names (postgres-connection.ts): only their loss says "a pooler". */
const OWN_STATEMENT = /prepared statement "resourcery_\d+(_\d+)?"/;

/**
 * The error to report instead of `error` when `error` is a transaction pooler refusing or
 * losing the store's per-connection state, else `undefined`. The answer is a plain `Error`
 * (a 500, and a start-up failure from `init`), not a 503: retrying does not help. It repeats
 * the pooler's message and carries no `cause`, whose code would make it a 503 again.
 *
 * @example
 * ```ts
 * pool.connect().catch((error) => { throw poolerFailure(error) ?? error; });
 * ```
 */
export function poolerFailure(error: unknown): Error | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as DriverError;
  if (typeof message !== 'string') return undefined;
  if (code === '08P01' && message.startsWith('unsupported startup parameter')) {
    return new Error(
      `PostgreSQL is reached through a connection pooler that refuses the settings the store sends when connecting (${message}): ${FIX}`,
    );
  }
  if ((code === '26000' || code === '42P05') && OWN_STATEMENT.test(message)) {
    return new Error(
      `PostgreSQL is reached through a transaction pooler, which ran a prepared statement on another server connection than the one it was prepared on (${message}): ${FIX}`,
    );
  }
  return undefined;
}
