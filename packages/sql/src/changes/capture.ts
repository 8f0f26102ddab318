import type { ChangeKind, CollectionSchema, Id, StoredRecord } from '@resourcery/core/store';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { CollectionPlan, Db } from '../store/collection-plan.js';
import type { ChangeSink, OpenTransaction } from '../store/run-transaction.js';

// What a write of a live collection adds to its transaction: the records before the write
// (locked, so that they stay as read until the commit), and its changes, queued on the
// transaction to be written just before COMMIT.

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
type Eb = ExpressionBuilder<any, any>;

/** The most ids one `IN (…)` carries. */
const CHUNK = 1000;

/**
 * The records of `plan`'s collection with one of `ids` (or whose `field` holds one of them), in
 * stored form with their sets of ids, as `find` answers them, ordered by id; locked `FOR UPDATE`
 * on PostgreSQL, MySQL and MariaDB (SQLite's transaction holds the write lock already).
 *
 * @example
 * ```ts
 * const [before] = await lockedRecords(plan, tx, [7]);
 * ```
 */
export async function lockedRecords(
  plan: CollectionPlan,
  tx: Db,
  ids: readonly Id[],
  field = 'id',
): Promise<StoredRecord[]> {
  const records: StoredRecord[] = [];
  const column = plan.column(field);
  for (let start = 0; start < ids.length; start += CHUNK) {
    const chunk = ids.slice(start, start + CHUNK);
    const match = (eb: Eb): Expression<SqlBool> =>
      chunk.length === 1 ? eb(column, '=', chunk[0]) : eb(column, 'in', chunk);
    let select = tx
      .selectFrom(plan.table)
      .select(plan.codec.columns)
      .select(plan.idSets.selections(plan.table))
      .where(match)
      .orderBy('id');
    if (plan.dialect.name !== 'sqlite') select = select.forUpdate();
    for (const row of await select.execute()) {
      const read = row as Record<string, unknown>;
      records.push(plan.idSets.read(read, plan.codec.toRecord(read)));
    }
  }
  return records;
}

/**
 * Queues one change of a record of `schema` on the open transaction, the records already as
 * JSON text (a record answered to the caller may be changed by it later).
 *
 * @example
 * ```ts
 * logChange(open, log, schema, 'updated', before, after);
 * ```
 */
export function logChange(
  open: OpenTransaction,
  sink: ChangeSink,
  schema: CollectionSchema,
  kind: ChangeKind,
  before: StoredRecord | null,
  after: StoredRecord | null,
): void {
  open.changes ??= { sink, list: [] };
  const record = (after ?? before) as StoredRecord;
  open.changes.list.push({
    collection: schema.name,
    kind,
    recordId: String(record.id),
    before: before && JSON.stringify(before),
    after: after && JSON.stringify(after),
  });
}
