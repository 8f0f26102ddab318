import type { Change, ChangeKind } from '@resourcery/core/store';
import { type Kysely, sql } from 'kysely';
import type { SqlDialectSpec } from '../dialects/dialect.js';
import { CHANGE_STATE_SCHEMA, CHANGES_SCHEMA } from './tables.js';

// The statements of the SQL change log: the final write of a transaction's changes (numbered in
// commit order), the read of a page after a position, the head, and pruning.

// biome-ignore lint/suspicious/noExplicitAny: the library's own tables, known at run time
type Db = Kysely<any>;

/** One change a transaction made, waiting for its commit; the records already JSON text. */
export interface PendingChange {
  readonly collection: string;
  readonly kind: ChangeKind;
  readonly recordId: string;
  readonly before: string | null;
  readonly after: string | null;
}

/** The change log's two tables of one store. */
export interface LogTables {
  readonly changes: string;
  readonly state: string;
}

/**
 * The tables of a store's change log (with its `tablePrefix`).
 *
 * @example
 * ```ts
 * logTables('api_').changes; // 'api_resourcery_changes'
 * ```
 */
export function logTables(tablePrefix: string): LogTables {
  return { changes: `${tablePrefix}${CHANGES_SCHEMA.name}`, state: `${tablePrefix}${CHANGE_STATE_SCHEMA.name}` };
}

/** A 31-bit hash of the table's name: the key of PostgreSQL's advisory lock, one per log. */
function lockKey(table: string): number {
  let hash = 0x811c9dc5;
  for (const char of table) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193);
  return hash & 0x7fffffff;
}

/** The advisory lock's first key: `RSCY`. */
const LOCK_CLASS = 0x52534359;

/**
 * Writes a transaction's changes, in its last statements before COMMIT, numbered after every
 * change committed before: PostgreSQL takes an advisory lock held until the commit (and sends
 * the NOTIFY that PostgreSQL delivers on commit) before the sequence numbers them; MySQL and
 * MariaDB lock the state row and move its `head`; SQLite's writers are serialized already.
 *
 * @example
 * ```ts
 * await writeChanges(tx, postgres, logTables(''), { channel: 'resourcery_changes', payload: 'k3X0' }, pending);
 * ```
 */
export async function writeChanges(
  tx: Db,
  dialect: SqlDialectSpec,
  tables: LogTables,
  notice: { readonly channel: string; readonly payload: string },
  pending: readonly PendingChange[],
): Promise<number[]> {
  const committedAt = Date.now();
  let rows: Record<string, unknown>[] = pending.map((change) => ({ committedAt, ...change }));
  if (dialect.name === 'postgres') {
    await sql`select pg_advisory_xact_lock(${sql.lit(LOCK_CLASS)}, ${sql.lit(lockKey(tables.changes))}), pg_notify(${notice.channel}, ${notice.payload})`.execute(
      tx,
    );
  } else if (dialect.name !== 'sqlite') {
    const moved =
      await sql`update ${sql.table(tables.state)} set ${sql.ref('head')} = last_insert_id(${sql.ref('head')} + ${rows.length}) where ${sql.ref('id')} = 1`.execute(
        tx,
      );
    const head = Number(moved.insertId);
    const first = head - rows.length + 1;
    rows = rows.map((row, i) => ({ id: first + i, ...row }));
  }
  const most = Math.floor(dialect.maxParameters / 7);
  const positions: number[] = [];
  for (let start = 0; start < rows.length; start += most) {
    const chunk = rows.slice(start, start + most);
    if (dialect.name !== 'postgres' && dialect.name !== 'sqlite') {
      await tx.insertInto(tables.changes).values(chunk).execute();
      for (const row of chunk) positions.push(Number(row.id));
      continue;
    }
    const written = await tx.insertInto(tables.changes).values(chunk).returning('id').execute();
    for (const row of written) positions.push(Number((row as { id: unknown }).id));
  }
  // Multi-row INSERT … RETURNING answers in the order of the rows on both databases; sorted all the same.
  return positions.sort((a, b) => a - b);
}

/** A row of {@link readChanges}'s query. */
interface PageRow {
  readonly pruned: unknown;
  readonly head: unknown;
  readonly id: unknown;
  readonly collection: string | null;
  readonly kind: ChangeKind | null;
  readonly before: string | null;
  readonly after: string | null;
}

/**
 * The changes after `after` (at most `limit`), with the head and the highest pruned position, in
 * one statement (one snapshot): `'gone'` when `after` is behind what was pruned, or past the head.
 *
 * @example
 * ```ts
 * await readChanges(db, logTables(''), 0, 100); // [{ seq: 1, collection: 'issues', kind: 'created', … }]
 * ```
 */
export async function readChanges(
  db: Db,
  tables: LogTables,
  after: number,
  limit: number,
): Promise<readonly Change[] | 'gone'> {
  const changes = sql.table(tables.changes);
  const [id, collection, kind, before, later] = ['id', 'collection', 'kind', 'before', 'after'].map((c) => sql.ref(c));
  const { rows } =
    await sql<PageRow>`select s.${sql.ref('prunedThrough')} as pruned, (select max(${id}) from ${changes}) as head, c.${id}, c.${collection}, c.${kind}, c.${before}, c.${later}
    from ${sql.table(tables.state)} s left join (select ${id}, ${collection}, ${kind}, ${before}, ${later} from ${changes} where ${id} > ${after} order by ${id} limit ${limit}) c on 1 = 1
    where s.${id} = 1 order by c.${id}`.execute(db);
  const first = rows[0];
  const pruned = Number(first?.pruned ?? 0);
  const head = Math.max(pruned, Number(first?.head ?? 0));
  if (after < pruned || after > head) return 'gone';
  return rows
    .filter((row) => row.id !== null && row.id !== undefined)
    .map((row) => {
      const recordBefore = row.before === null ? null : JSON.parse(row.before);
      const recordAfter = row.after === null ? null : JSON.parse(row.after);
      return {
        seq: Number(row.id),
        collection: row.collection as string,
        kind: row.kind as ChangeKind,
        id: (recordAfter ?? recordBefore).id,
        before: recordBefore,
        after: recordAfter,
      };
    });
}

/**
 * The position of the newest change (the highest pruned one when every change was pruned; 0 before any).
 *
 * @example
 * ```ts
 * await readHead(db, logTables('')); // 42
 * ```
 */
export async function readHead(db: Db, tables: LogTables): Promise<number> {
  const id = sql.ref('id');
  const { rows } = await sql<{
    pruned: unknown;
    head: unknown;
  }>`select s.${sql.ref('prunedThrough')} as pruned, (select max(${id}) from ${sql.table(tables.changes)}) as head
    from ${sql.table(tables.state)} s where s.${id} = 1`.execute(db);
  const row = rows[0];
  return Math.max(Number(row?.pruned ?? 0), Number(row?.head ?? 0));
}

/**
 * Deletes the changes committed before `cutoff` (ms since the epoch) and records the highest
 * position deleted, in one transaction.
 *
 * @example
 * ```ts
 * await pruneChanges(db, logTables(''), Date.now() - 15 * 60_000);
 * ```
 */
export async function pruneChanges(db: Db, tables: LogTables, cutoff: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const found = await tx
      .selectFrom(tables.changes)
      .select((eb) => eb.fn.max('id').as('last'))
      .where('committedAt', '<', cutoff)
      .executeTakeFirst();
    const last = Number(found?.last ?? 0);
    if (last === 0) return;
    await tx
      .updateTable(tables.state)
      .set({ prunedThrough: last })
      .where('id', '=', 1)
      .where('prunedThrough', '<', last)
      .execute();
    await tx.deleteFrom(tables.changes).where('id', '<=', last).execute();
  });
}
