import type { Condition, Id, StoredRecord } from '@resourcery/core/store';
import type { CollectionPlan, Db } from '../store/collection-plan.js';
import type { IdSets } from './id-sets.js';
import { writeWords } from './search-words-table.js';

// The writes of a collection whose records hold sets of ids (`labelIds`), and MySQL's creates
// (whose INSERT answers no row): the record's row, its searchable fields' words (MySQL's words
// table), and its join rows in one transaction, then the record read back with its sets; and what
// a failed write's foreign key error names when the driver does not say.

/** The sets a write gives, each with its ids. */
export type GivenSets = ReturnType<IdSets['given']>;

/** Reads one record (with its sets) on a transaction, if it matches `where`. */
export type ReadOne = (tx: Db, id: Id, where: readonly Condition[]) => Promise<StoredRecord | undefined>;

/**
 * Inserts the record's row, then its words (MySQL) and its join rows, on `tx` (a transaction),
 * and answers the record as `read` finds it.
 *
 * @example
 * ```ts
 * await createWithSets(plan, tx, { title: 'Bug' }, plan.idSets.given({ labelIds: [1, 2] }), read);
 * ```
 */
export async function createWithSets(
  plan: CollectionPlan,
  tx: Db,
  columns: Record<string, unknown>,
  sets: GivenSets,
  read: ReadOne,
): Promise<StoredRecord> {
  const empty = Object.keys(columns).length === 0;
  let id = columns.id as Id | undefined;
  if (plan.dialect.supportsReturning) {
    const insert = empty ? tx.insertInto(plan.table).defaultValues() : tx.insertInto(plan.table).values(columns);
    const row = (await insert.returning('id').executeTakeFirstOrThrow()) as { id: unknown };
    id = plan.codec.selected([]).toRecord(row).id;
  } else {
    const result = await tx
      .insertInto(plan.table)
      .values(empty ? { id: null } : columns)
      .executeTakeFirstOrThrow();
    id ??= Number(result.insertId);
  }
  await writeWords(tx, plan.schema, plan.table, id as Id, columns, plan.dialect, true);
  for (const [set, ids] of sets) await plan.idSets.write(tx, set, id as Id, ids, columns, true);
  return (await read(tx, id as Id, [])) as StoredRecord;
}

/**
 * What an update of a record's row (`columns`, as written) carries along on its transaction: the
 * words of the searchable fields it wrote (MySQL, MariaDB: search-words-table.ts) and the join
 * rows' copies of the fields it changed (ddl/join-copies.ts).
 *
 * @example
 * ```ts
 * await afterRowUpdate(plan, tx, 7, { archivedAt: '2026-11-28T10:00:00.000Z' });
 * ```
 */
export async function afterRowUpdate(
  plan: CollectionPlan,
  tx: Db,
  id: Id,
  columns: Readonly<Record<string, unknown>>,
): Promise<void> {
  await writeWords(tx, plan.schema, plan.table, id, columns, plan.dialect, false);
  await plan.idSets.copy(tx, id, columns);
}

/**
 * Updates the record's row (when columns change) if it matches `where`, then replaces its join
 * rows, on `tx`; `undefined` when no record matches.
 *
 * @example
 * ```ts
 * await updateWithSets(plan, tx, { id: 3, columns: {}, sets: plan.idSets.given({ labelIds: [] }), where: [] }, read);
 * ```
 */
export async function updateWithSets(
  plan: CollectionPlan,
  tx: Db,
  write: { id: Id; columns: Record<string, unknown>; sets: GivenSets; where: readonly Condition[] },
  read: ReadOne,
): Promise<StoredRecord | undefined> {
  const { id, columns, sets, where } = write;
  if (Object.keys(columns).length > 0) {
    const result = await tx
      .updateTable(plan.table)
      .set(columns)
      .where((eb) => plan.matches(eb, where, id))
      .executeTakeFirstOrThrow();
    if (result.numUpdatedRows === 0n) return undefined;
    await afterRowUpdate(plan, tx, id, columns);
  } else if (!(await lockedRow(plan, tx, id, where))) return undefined;
  for (const [set, ids] of sets) await plan.idSets.write(tx, set, id, ids, columns);
  return read(tx, id, []);
}

/**
 * Whether the record is there for `where`, its row locked until the transaction ends (PostgreSQL:
 * `FOR NO KEY UPDATE`, which leaves other tables' foreign keys free; MySQL, MariaDB: `FOR
 * UPDATE`; SQLite writes one at a time), as an UPDATE of its row would lock it: a write of its sets
 * alone then waits for a concurrent write of its row (a move to another tenant, an archive) and
 * reads its copied fields after it, where it would write join rows with the fields it read before
 * (whose copies that write's own UPDATE of the join rows, started before them, never sees).
 */
async function lockedRow(plan: CollectionPlan, tx: Db, id: Id, where: readonly Condition[]): Promise<boolean> {
  const found = tx
    .selectFrom(plan.table)
    .select('id')
    .where((eb) => plan.matches(eb, where, id));
  const { name } = plan.dialect;
  const locked = name === 'postgres' ? found.forNoKeyUpdate() : name === 'sqlite' ? found : found.forUpdate();
  return (await locked.executeTakeFirst()) !== undefined;
}

/**
 * The foreign key among the written columns (of one row, or of the rows of a bulk create) whose
 * record does not exist. Only on the error path, for drivers that do not name the key (SQLite):
 * one query per written key (per thousand of its distinct values).
 *
 * @example
 * ```ts
 * await missingParent(db, plan, [{ authorId: 99 }]); // 'authorId'
 * ```
 */
export async function missingParent(
  db: Db,
  plan: CollectionPlan,
  written: readonly Readonly<Record<string, unknown>>[],
): Promise<string | undefined> {
  const { catalog } = plan;
  for (const key of plan.schema.references ?? []) {
    const values = [...new Set(written.map((columns) => columns[key.field]))].filter((value) => value != null);
    for (let start = 0; start < values.length; start += 1000) {
      const wanted = values.slice(start, start + 1000);
      const found = await db.selectFrom(catalog.table(key.collection)).select('id').where('id', 'in', wanted).execute();
      if (found.length < wanted.length) return key.field;
    }
  }
  return undefined;
}
