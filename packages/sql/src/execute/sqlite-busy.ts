/**
 * Waiting for another process's lock without stopping the event loop. better-sqlite3 is
 * synchronous: its busy timeout would make a write that waits for a lock freeze the whole
 * process (every other request, the health checks) for as long as it waits. The store's own
 * SQLite database is opened with no busy timeout instead, and a statement refused with
 * `SQLITE_BUSY` is tried again after a pause (1 ms growing to 100 ms, as SQLite's own busy
 * handler does), on a timer, until `busyTimeoutMs` have passed; then it fails (a 503).
 */
import { CompiledQuery, type DatabaseConnection, type QueryResult, SqliteDriver } from 'kysely';

/** The pauses between attempts, in ms (SQLite's busy handler's), the last repeated. */
const PAUSES = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100];

/**
 * Whether a driver error says another connection holds the lock (`SQLITE_BUSY` and its
 * extended codes): nothing was done, and the statement may be tried again.
 *
 * @example
 * ```ts
 * isBusy({ code: 'SQLITE_BUSY' }); // true
 * ```
 */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** The pause before attempt `attempt + 1`. */
export function pauseAfter(attempt: number): number {
  return PAUSES[Math.min(attempt, PAUSES.length - 1)] as number;
}

/**
 * Runs `attempt`; while it fails with an error `retry` accepts (by default {@link isBusy}), runs
 * it again after a growing pause, until the time `deadline` (ms since the epoch); then rejects
 * with its last error. Other errors reject at once. The first attempt is always made.
 *
 * @example
 * ```ts
 * const rows = await patiently(() => db.prepare(sql).all(parameters), Date.now() + 5000);
 * ```
 */
export async function patiently<T>(
  attempt: () => T | Promise<T>,
  deadline: number,
  retry: (error: unknown) => boolean = isBusy,
): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const left = deadline - Date.now();
      if (!retry(error) || left <= 0) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pauseAfter(tries), left)));
    }
  }
}

/** The part of better-sqlite3's `Database` the driver looks at. */
interface TransactionState {
  readonly inTransaction: boolean;
}

const COMMIT = /^\s*commit\b/i;

/**
 * Kysely's SQLite driver, waiting for locks on timers: transactions begin with
 * `BEGIN IMMEDIATE` (the write lock is taken first, tried again while another process holds it,
 * so that no statement inside can meet a lock it would have to wait for), and a statement outside
 * a transaction (or a `COMMIT`) refused with `SQLITE_BUSY` is tried again until `waitMs` have
 * passed since the connection was asked for (the wait for the one connection counts).
 * `database()` answers the database the driver opened (once it did).
 *
 * @example
 * ```ts
 * const driver = new PatientSqliteDriver({ database: open }, () => adapter.connection, 5000);
 * ```
 */
export class PatientSqliteDriver extends SqliteDriver {
  readonly #connections = new WeakMap<DatabaseConnection, DatabaseConnection>();
  /** Until when the statements of the current use of the one connection may wait for a lock. */
  #deadline = 0;

  constructor(
    config: ConstructorParameters<typeof SqliteDriver>[0],
    private readonly database: () => TransactionState | undefined,
    private readonly waitMs: number,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const asked = Date.now();
    const connection = await super.acquireConnection();
    this.#deadline = asked + this.waitMs;
    let patient = this.#connections.get(connection);
    if (!patient) {
      const retry = (query: CompiledQuery) => (error: unknown) =>
        isBusy(error) && (!this.database()?.inTransaction || COMMIT.test(query.sql));
      patient = {
        executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
          patiently(() => connection.executeQuery<R>(query), this.#deadline, retry(query)),
        streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
      };
      this.#connections.set(connection, patient);
    }
    return patient;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}
