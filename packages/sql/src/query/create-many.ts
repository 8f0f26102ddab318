import type { Id, StoredRecord } from '@resourcery/core/store';
import { sql } from 'kysely';
import { execute } from '../execute/execute.js';
import { oneOff } from '../execute/statement-cache.js';
import type { CollectionPlan, Db } from '../store/collection-plan.js';
import { usesWordsTable, writeWordsOfMany } from './search-words-table.js';
import type { GivenSets } from './set-writes.js';

// Bulk creates (`Collection.createMany`): the rows of every record in one multi-row
// `INSERT … VALUES (…), (…) RETURNING <columns>` (one per batch, when the rows outgrow the
// parameters a statement may carry), then the words table of MySQL/MariaDB's search and the join
// rows of the sets of ids, each in one multi-row INSERT for all the records, all in one
// transaction. Each row holds exactly the columns `create` would write for its record (server
// values and declared defaults included); a column another record writes and this one does not
// takes the column's DEFAULT, as it would in `create` (on SQLite, whose VALUES know no DEFAULT,
// NULL: the tables the store makes have a DEFAULT only for declared defaults, which every row
// already holds; a default added by hand to a table, and not declared, is not applied there).

/** Runs `work` atomically: in a new transaction, or behind a savepoint of the open one. */
export type Atomic = <T>(work: (tx: Db) => Promise<T>) => Promise<T>;

/** A uuid in one case, so that the id the store gave and the one the database answers meet. */
function idKey(id: unknown): unknown {
  return typeof id === 'string' ? id.toLowerCase() : id;
}

/**
 * The rows in batches of consecutive rows, `[start, end)`, one INSERT each: as many rows as the
 * statement's parameters allow (one per row and column of the batch, at most).
 */
function batches(rows: readonly Record<string, unknown>[], maxParameters: number) {
  const ranges: [number, number][] = [];
  let start = 0;
  let columns = new Set<string>();
  for (let i = 0; i < rows.length; i++) {
    const keys = Object.keys(rows[i] as Record<string, unknown>);
    let width = columns.size;
    for (const key of keys) if (!columns.has(key)) width++;
    if (i > start && (i - start + 1) * Math.max(width, 1) > maxParameters) {
      ranges.push([start, i]);
      start = i;
      columns = new Set();
    }
    for (const key of keys) columns.add(key);
  }
  ranges.push([start, rows.length]);
  return ranges;
}

/**
 * One multi-row INSERT of `rows` answering the records in the order of `rows`. The SQL standard
 * promises no order of RETURNING (SQLite says it is arbitrary), so the records are put back in
 * order: by the uuid each row was given, or by their integer ids, which the database assigns
 * ascending in the order of the VALUES (a sequence, a rowid, an AUTO_INCREMENT).
 */
async function insertReturning(
  plan: CollectionPlan,
  db: Db,
  rows: readonly Record<string, unknown>[],
): Promise<StoredRecord[]> {
  // Records that write no column at all (every attribute optional, nothing given): the id's
  // DEFAULT, or NULL where VALUES know no DEFAULT (SQLite: a NULL rowid is the next one).
  const blank = plan.dialect.name === 'sqlite' ? null : sql`default`;
  const values = rows.some((row) => Object.keys(row).length > 0) ? rows : rows.map(() => ({ id: blank }));
  const insert = db.insertInto(plan.table).values(values as Record<string, unknown>[]);
  const statement = oneOff(insert.returning(plan.codec.columns).compile());
  const answered = (await execute<Record<string, unknown>>(db, statement)).rows;
  const records = answered.map((row) => plan.codec.toRecord(row));
  if (records.length !== rows.length) throw new Error(`${plan.table}: ${records.length} rows for ${rows.length}`);
  if (plan.schema.attributes[0]?.type !== 'uuid') return records.sort((a, b) => (a.id as number) - (b.id as number));
  const byId = new Map(records.map((record) => [idKey(record.id), record]));
  return rows.map((row) => byId.get(idKey(row.id)) as StoredRecord);
}

/**
 * MySQL, whose INSERT answers no rows: the rows one INSERT each (each answering its id), then the
 * records read back by id. One multi-row INSERT would answer only its first id, and the others
 * are consecutive only when `auto_increment_increment` is 1 and the lock mode hands one
 * statement consecutive values (not so in every setup: a Galera cluster steps by its size).
 */
async function insertOneByOne(
  plan: CollectionPlan,
  tx: Db,
  rows: readonly Record<string, unknown>[],
): Promise<StoredRecord[]> {
  const ids: Id[] = [];
  for (const columns of rows) {
    const empty = Object.keys(columns).length === 0;
    const result = await tx
      .insertInto(plan.table)
      .values(empty ? { id: null } : columns)
      .executeTakeFirstOrThrow();
    ids.push((columns.id as Id | undefined) ?? Number(result.insertId));
  }
  const byId = new Map<unknown, StoredRecord>();
  const most = plan.dialect.maxParameters;
  for (let start = 0; start < ids.length; start += most) {
    const select = tx.selectFrom(plan.table).select(plan.codec.columns);
    const rows = await select.where('id', 'in', ids.slice(start, start + most)).execute();
    for (const row of rows) {
      const record = plan.codec.toRecord(row as Record<string, unknown>);
      byId.set(idKey(record.id), record);
    }
  }
  return ids.map((id) => byId.get(idKey(id)) as StoredRecord);
}

/**
 * Stores new records (`rows`: the columns `create` would write for each, `given`: the sets of
 * ids each gives) and answers them in the order given, each as `create` answers it (its sets
 * of ids ascending, `[]` when not given). Without join rows or words to write, and rows few
 * enough for one statement, that one statement runs alone (atomic by itself); else everything
 * runs in `atomic`.
 *
 * @example
 * ```ts
 * const rows = values.map((one) => plan.codec.toColumns(plan.server.create(one), true));
 * const records = await insertMany(plan, db, rows, values.map((one) => plan.idSets.given(one)), atomic);
 * ```
 */
export async function insertMany(
  plan: CollectionPlan,
  db: Db,
  rows: readonly Record<string, unknown>[],
  given: readonly GivenSets[],
  atomic: Atomic,
): Promise<StoredRecord[]> {
  if (rows.length === 0) return [];
  const { dialect, idSets } = plan;
  const answer = (records: StoredRecord[]) => records.map((record, i) => idSets.withGiven(record, given[i] ?? []));
  if (!dialect.insertReturning) return atomic(async (tx) => answer(await written(plan, tx, rows, given)));
  const ranges = batches(rows, dialect.maxParameters);
  const more = given.some((sets) => sets.length > 0) || usesWordsTable(plan.schema, dialect);
  if (ranges.length === 1 && !more) return answer(await insertReturning(plan, db, rows));
  return atomic(async (tx) => answer(await written(plan, tx, rows, given, ranges)));
}

/** The rows inserted (by batches with RETURNING, else one by one), then their words and join rows, on `tx`. */
async function written(
  plan: CollectionPlan,
  tx: Db,
  rows: readonly Record<string, unknown>[],
  given: readonly GivenSets[],
  ranges?: readonly [number, number][],
): Promise<StoredRecord[]> {
  let records: StoredRecord[] = ranges ? [] : await insertOneByOne(plan, tx, rows);
  for (const [start, end] of ranges ?? []) {
    records = records.concat(await insertReturning(plan, tx, rows.slice(start, end)));
  }
  const ids = records.map((record) => record.id);
  const withColumns = rows.map((columns, i) => [ids[i] as Id, columns] as const);
  await writeWordsOfMany(tx, plan.schema, plan.table, withColumns, plan.dialect);
  for (const set of plan.idSets.sets) {
    const linked = given.flatMap((sets, i) =>
      sets.filter(([one]) => one === set).map(([, to]) => [ids[i] as Id, to, rows[i]] as const),
    );
    if (linked.length > 0) await plan.idSets.add(tx, set, linked, true);
  }
  return records;
}
