/**
 * How the store's statements reach its own connections, in one place: the SQL fast path. The
 * store's queries have few shapes (`shapes.ts` compiles each once) and each runs often, so
 * around Kysely's executor the store's own connections keep every statement prepared
 * (`sqlite-connection.ts`, `postgres-connection.ts`), run it without Kysely's layers when nothing
 * needs them (this file), and commit SQLite writes together (`group-commit.ts`). A Kysely
 * instance the application opened gets none of it: Kysely runs every statement.
 */
import type { CompiledQuery, Kysely, QueryResult } from 'kysely';
import { writeTogether } from './group-commit.js';
import { StorePostgresAdapter } from './postgres-connection.js';
import { isBusy } from './sqlite-busy.js';
import { StoreSqliteAdapter, type StoreSqliteStatement } from './sqlite-connection.js';

/** A read on the store's own SQLite database, through Kysely only when it must wait for a lock. */
function read<Row>(
  db: Kysely<unknown>,
  prepared: StoreSqliteStatement,
  statement: CompiledQuery,
): QueryResult<Row> | Promise<QueryResult<Row>> {
  try {
    return { rows: prepared.all(statement.parameters) as Row[] };
  } catch (error) {
    // Rare in WAL mode (a log being recovered): Kysely's driver waits for the lock on a timer.
    if (isBusy(error)) return db.executeQuery<Row>(statement);
    throw error;
  }
}

/**
 * Runs a compiled statement that answers rows. On the store's own SQLite database with no
 * transaction open it runs there and then: better-sqlite3 is synchronous, so nothing can come
 * between, and Kysely's lock of the one connection (a few promise turns per query) is only
 * needed to keep other statements out of an open transaction; a write is committed with the
 * other writes of this turn of the event loop ({@link writeTogether}). A statement that meets
 * another process's lock is tried again on a timer, never waited for on the event loop. Outside
 * a transaction on the store's own PostgreSQL pool, it runs on a connection of the pool as
 * Kysely would, without Kysely's layers around it (a few µs of CPU per query). Otherwise Kysely
 * runs it.
 *
 * @example
 * ```ts
 * const { rows } = await execute(db, db.selectFrom('books').selectAll().compile());
 * ```
 */
export function execute<Row>(
  db: Kysely<unknown>,
  statement: CompiledQuery,
): QueryResult<Row> | Promise<QueryResult<Row>> {
  const { adapter } = db.getExecutor();
  if (adapter instanceof StoreSqliteAdapter) {
    const connection = adapter.connection;
    if (connection?.open && !connection.inTransaction) {
      let prepared: StoreSqliteStatement;
      try {
        prepared = connection.prepare(statement.sql);
      } catch (error) {
        // The schema could not be read for another process's lock: Kysely's driver waits for it.
        if (isBusy(error)) return db.executeQuery<Row>(statement);
        throw error;
      }
      if (prepared.reader && prepared.readonly) return read<Row>(db, prepared, statement);
      if (prepared.reader) return writeTogether(connection, prepared, db, statement, connection.waitMs);
    }
  } else if (adapter instanceof StorePostgresAdapter) {
    const pool = adapter.pool;
    if (pool && !pool.ending && !db.isTransaction) return pool.run<Row>(statement);
  }
  return db.executeQuery<Row>(statement);
}
