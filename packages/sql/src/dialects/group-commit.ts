/**
 * Group commit on the store's own SQLite database. In WAL mode with `synchronous = FULL`, every
 * commit waits for an `fsync`, and better-sqlite3 waits for it on the event loop: one write per
 * `fsync`, whatever the CPU. The writes that requests send during one turn of the event loop are
 * instead committed together: one transaction, each write in a savepoint of its own, one
 * `fsync` for all. Each write is still answered only once its commit is on disk, and a write that
 * fails (a constraint) is undone alone while the others commit.
 */
import type { CompiledQuery, Kysely, QueryResult } from 'kysely';

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
  resolve(result: QueryResult<unknown>): void;
  reject(error: unknown): void;
}

/** The writes waiting for the end of this turn of the event loop, per database. */
const waiting = new WeakMap<GroupedDatabase, Write[]>();

/**
 * Runs `statement` (prepared on `database` from `compiled`) with the other writes of this turn
 * of the event loop, in one transaction, and answers its rows once that transaction is
 * committed. `db` runs it instead when a transaction is open on the connection by then.
 *
 * @example
 * ```ts
 * const { rows } = await writeTogether(database, database.prepare(compiled.sql), db, compiled);
 * ```
 */
export function writeTogether<Row>(
  database: GroupedDatabase,
  statement: WritingStatement,
  db: Kysely<unknown>,
  compiled: CompiledQuery,
): Promise<QueryResult<Row>> {
  return new Promise((resolve, reject) => {
    let writes = waiting.get(database);
    if (writes === undefined) {
      writes = [];
      waiting.set(database, writes);
      setImmediate(() => commit(database));
    }
    writes.push({ statement, compiled, db, resolve: resolve as Write['resolve'], reject });
  });
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
    settle(write, () => ({ rows: write.statement.all(write.compiled.parameters) }));
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
    // The transaction itself failed (busy, disk full, I/O): nothing of it is kept, every write
    // gets the error, as each would have alone.
    try {
      if (database.inTransaction) run('ROLLBACK');
    } catch {
      // SQLite has rolled it back itself (a failed COMMIT on a full disk, say).
    }
    for (const write of writes) write.reject(error);
    return;
  }
  writes.forEach((write, i) => {
    const { rows, error } = outcomes[i] ?? {};
    if (rows) write.resolve({ rows });
    else write.reject(error);
  });
}

function settle(write: Write, result: () => QueryResult<unknown>): void {
  try {
    write.resolve(result());
  } catch (error) {
    write.reject(error);
  }
}
