import type { Isolation } from '@resourcery/core/store';
import { sql } from 'kysely';
import type { Db } from './collection-plan.js';

/** State shared by everything bound to one open transaction. */
export interface OpenTransaction {
  savepoints: number;
  /** Whether its work did something outside the database: it is never run again (see `sideEffect`). */
  sideEffects: boolean;
}

/** Marks an error thrown by transaction work, so that it is rethrown untouched. */
class WorkFailure {
  constructor(readonly error: unknown) {}
}

async function savepoint<T>(db: Db, open: OpenTransaction, work: () => Promise<T>): Promise<T> {
  const name = sql.id(`resourcery_${++open.savepoints}`);
  await sql`savepoint ${name}`.execute(db);
  try {
    const result = await work();
    await sql`release savepoint ${name}`.execute(db);
    return result;
  } catch (error) {
    await sql`rollback to savepoint ${name}`.execute(db);
    throw error;
  }
}

/**
 * Runs `work` in a database transaction (committed when it resolves, rolled back when it
 * rejects), at `isolation` if given; inside an open one (`open`), behind a savepoint, so that its
 * own failure undoes only its own writes. Errors of `work` come out untouched, the database's
 * through `translate`.
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
    return await begun.execute((tx) => wrapped(tx, { savepoints: 0, sideEffects: false }));
  } catch (error) {
    if (error instanceof WorkFailure) throw error.error;
    throw translate(error);
  }
}
