import { ConstraintViolation, type StoreRetry } from '@resourcery/core/store';
import { missingParent } from '../query/set-writes.js';
import type { CollectionPlan, Db } from './collection-plan.js';
import type { OpenTransaction } from './run-transaction.js';
import { conflictCode, translateDriverError } from './translate-error.js';

/** What a failed statement was doing, for the error's translation. */
export interface Doing {
  readonly destroying?: boolean;
  /** The columns the rows a write wrote: a foreign key error that names no key is found among them. */
  readonly written?: readonly Record<string, unknown>[];
}

/**
 * Runs the statements of one call of a collection (`work`, on `db`). Outside a transaction, the
 * call runs again when the database aborted it for a conflict (a deadlock), as the store's
 * retries allow, each retry told to `listener`; inside one, the transaction is what runs again.
 * A failure comes out translated for the core: a foreign key error that names no key names the
 * written field that refers to nothing, looked up after the failure.
 *
 * @example
 * ```ts
 * return runStatement(plan, db, undefined, (on) => plan.listSelect(on, query).execute(), {});
 * ```
 */
export async function runStatement<T>(
  plan: CollectionPlan,
  db: Db,
  transaction: OpenTransaction | undefined,
  work: (db: Db) => Promise<T>,
  doing: Doing,
  listener?: (retry: StoreRetry) => void,
): Promise<T> {
  const started = Date.now();
  try {
    return await work(db);
  } catch (error) {
    const { retries } = plan;
    try {
      if (transaction || !retries) throw error;
      const about = { scope: 'statement', collection: plan.schema.name } as const;
      return await retries.retry(error, started, () => work(db), conflictCode, about, listener);
    } catch (last) {
      throw await failure(plan, db, last, doing);
    }
  }
}

async function failure(plan: CollectionPlan, db: Db, error: unknown, doing: Doing): Promise<unknown> {
  const { schema, dialect, catalog } = plan;
  const translated = translateDriverError(error, schema, [dialect], { destroying: doing.destroying, catalog });
  if (translated instanceof ConstraintViolation && translated.kind === 'foreign_key' && !translated.field) {
    const field = doing.written && (await missingParent(db, plan, doing.written).catch(() => undefined));
    if (field) return new ConstraintViolation('foreign_key', field, error);
  }
  return translated;
}
