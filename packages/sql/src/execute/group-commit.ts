/**
 * Group commit on the store's own SQLite database. In WAL mode with `synchronous = FULL`, every
 * commit waits for an `fsync`, and better-sqlite3 waits for it on the event loop: one write per
 * `fsync`, whatever the CPU. The writes that requests send during one turn of the event loop are
 * instead committed together: one transaction, each write in a savepoint of its own, one
 * `fsync` for all. Each write is still answered only once its commit is on disk, and a write that
 * fails (a constraint) is undone alone while the others commit. While another process holds the
 * write lock, the group is tried again on a timer (with the writes that came meanwhile), each
 * write until its own `waitMs` have passed, then it fails with `SQLITE_BUSY` (a 503).
 */
import type { CompiledQuery, Kysely, QueryResult } from 'kysely';
import { isBusy, pauseAfter } from './sqlite-busy.js';

/** A prepared statement that writes and answers rows (`INSERT`, `UPDATE`, `DELETE … RETURNING`). */
export interface WritingStatement {
  all(parameters: readonly unknown[]): unknown[];
}

/** The part of better-sqlite3's `Database` that group commit uses. */
export interface GroupedDatabase {
  readonly open: boolean;
  readonly inTransaction: boolean;
  prepare(source: string): { run(...parameters: never[]): unknown };
}

interface Write {
  readonly statement: WritingStatement;
  readonly compiled: CompiledQuery;
  readonly db: Kysely<unknown>;
  /** Until when it may wait for another process's lock (ms since the epoch). */
  readonly deadline: number;
  resolve(result: QueryResult<unknown>): void;
  reject(error: unknown): void;
}

/** The writes waiting for the end of this turn of the event loop (or for a lock), per database. */
const waiting = new WeakMap<GroupedDatabase, Write[]>();
/** How many times in a row the database's lock was found taken. */
const refusals = new WeakMap<GroupedDatabase, number>();

/**
 * Runs `statement` (prepared on `database` from `compiled`) with the other writes of this turn
 * of the event loop, in one transaction, and answers its rows once that transaction is
 * committed. `db` runs it instead when a transaction is open on the connection by then. While
 * another process holds the lock it is tried again, for at most `waitMs`.
 *
 * @example
 * ```ts
 * const { rows } = await writeTogether(database, database.prepare(compiled.sql), db, compiled, 5000);
 * ```
 */
export function writeTogether<Row>(
  database: GroupedDatabase,
  statement: WritingStatement,
  db: Kysely<unknown>,
  compiled: CompiledQuery,
  waitMs: number,
): Promise<QueryResult<Row>> {
  return new Promise((resolve, reject) => {
    let writes = waiting.get(database);
    if (writes === undefined) {
      writes = [];
      waiting.set(database, writes);
      setImmediate(() => commit(database));
    }
    const deadline = Date.now() + waitMs;
    writes.push({ statement, compiled, db, deadline, resolve: resolve as Write['resolve'], reject });
  });
}

/**
 * The lock is taken by another process: the writes whose wait is over fail with `error`, the
 * others are tried again after a pause, with the writes that come meanwhile.
 */
function later(database: GroupedDatabase, writes: readonly Write[], error: unknown): void {
  const now = Date.now();
  const left = writes.filter((write) => write.deadline > now);
  for (const write of writes) if (write.deadline <= now) write.reject(error);
  if (left.length === 0) {
    refusals.delete(database);
    return;
  }
  const refused = refusals.get(database) ?? 0;
  refusals.set(database, refused + 1);
  waiting.set(database, left);
  const first = Math.min(...left.map((write) => write.deadline));
  setTimeout(() => commit(database), Math.min(pauseAfter(refused), first - now));
}

function commit(database: GroupedDatabase): void {
  const writes = waiting.get(database) ?? [];
  waiting.delete(database);
  if (!database.open || database.inTransaction) {
    // A transaction began meanwhile (or the store closed): Kysely runs each write after it (or
    // answers the store's error), as it runs any statement.
    for (const write of writes) write.db.executeQuery(write.compiled).then(write.resolve, write.reject);
    return;
  }
  if (writes.length === 1) {
    const [write] = writes as [Write];
    try {
      write.resolve({ rows: write.statement.all(write.compiled.parameters) });
      refusals.delete(database);
    } catch (error) {
      if (isBusy(error)) later(database, writes, error);
      else write.reject(error);
    }
    return;
  }
  const run = (sql: string) => database.prepare(sql).run();
  const outcomes: { rows?: unknown[]; error?: unknown }[] = [];
  try {
    run('BEGIN IMMEDIATE');
    for (const write of writes) {
      run('SAVEPOINT resourcery_write');
      let outcome: (typeof outcomes)[number];
      try {
        outcome = { rows: write.statement.all(write.compiled.parameters) };
      } catch (error) {
        run('ROLLBACK TO resourcery_write'); // this write alone is undone
        outcome = { error };
      }
      run('RELEASE resourcery_write');
      outcomes.push(outcome);
    }
    run('COMMIT');
  } catch (error) {
    // The transaction itself failed (locked, disk full, I/O): nothing of it is kept. Locked, it
    // is tried again; else every write gets the error, as each would have alone.
    try {
      if (database.inTransaction) run('ROLLBACK');
    } catch {
      // SQLite has rolled it back itself (a failed COMMIT on a full disk, say).
    }
    if (isBusy(error)) later(database, writes, error);
    else for (const write of writes) write.reject(error);
    return;
  }
  refusals.delete(database);
  writes.forEach((write, i) => {
    const { rows, error } = outcomes[i] ?? {};
    if (rows) write.resolve({ rows });
    else write.reject(error);
  });
}
