import type { Isolation } from '@resourcery/core/store';
import { sql } from 'kysely';
import type { PendingChange } from '../changes/log-sql.js';
import type { Db } from './collection-plan.js';

/** Where a transaction's changes of live collections go: written before COMMIT, told after it. */
export interface ChangeSink {
  /** Writes the changes; answers their positions, in order. */
  flush(tx: Db, pending: readonly PendingChange[]): Promise<readonly number[]>;
  /** The changes at these positions committed. */
  committed(pending: readonly PendingChange[], positions: readonly number[]): void;
}

/** State shared by everything bound to one open transaction. */
export interface OpenTransaction {
  savepoints: number;
  /** Whether its work did something outside the database: it is never run again (see `sideEffect`). */
  sideEffects: boolean;
  /** The changes of live collections it made so far (the change log's), in order. */
  changes?: { readonly sink: ChangeSink; readonly list: PendingChange[] };
}

/** Marks an error thrown by transaction work, so that it is rethrown untouched. */
class WorkFailure {
  constructor(readonly error: unknown) {}
}

async function savepoint<T>(db: Db, open: OpenTransaction, work: () => Promise<T>): Promise<T> {
  const name = sql.id(`resourcery_${++open.savepoints}`);
  await sql`savepoint ${name}`.execute(db);
  const logged = open.changes?.list.length ?? 0;
  try {
    const result = await work();
    await sql`release savepoint ${name}`.execute(db);
    return result;
  } catch (error) {
    await sql`rollback to savepoint ${name}`.execute(db);
    open.changes?.list.splice(logged); // its changes are undone with it
    throw error;
  }
}

/**
 * Runs `work` in a database transaction (committed when it resolves, rolled back when it
 * rejects), at `isolation` if given; inside an open one (`open`), behind a savepoint, so that its
 * own failure undoes only its own writes. Errors of `work` come out untouched, the database's
 * through `translate`. The changes of live collections it made are written just before COMMIT,
 * and their log told after it.
 *
 * @example
 * ```ts
 * await inTransaction(db, undefined, (tx, open) => work(new SqlCollection(plan, tx, open)), translate);
 * ```
 */
export async function inTransaction<T>(
  db: Db,
  open: OpenTransaction | undefined,
  work: (db: Db, open: OpenTransaction) => Promise<T>,
  translate: (error: unknown) => unknown,
  isolation?: Isolation,
): Promise<T> {
  const wrapped = async (tx: Db, state: OpenTransaction): Promise<T> => {
    try {
      return await work(tx, state);
    } catch (error) {
      throw new WorkFailure(error);
    }
  };
  try {
    if (open) return await savepoint(db, open, () => wrapped(db, open));
    const begun = isolation ? db.transaction().setIsolationLevel(isolation) : db.transaction();
    const state: OpenTransaction = { savepoints: 0, sideEffects: false };
    let positions: readonly number[] = [];
    const result = await begun.execute(async (tx) => {
      const result = await wrapped(tx, state);
      const { changes } = state;
      if (changes && changes.list.length > 0) positions = await changes.sink.flush(tx, changes.list);
      return result;
    });
    if (state.changes && positions.length > 0) state.changes.sink.committed(state.changes.list, positions);
    return result;
  } catch (error) {
    if (error instanceof WorkFailure) throw error.error;
    throw translate(error);
  }
}
