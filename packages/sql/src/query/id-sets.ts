import {
  type CollectionSchema,
  ConstraintViolation,
  type Id,
  type IdSet,
  type StoredRecord,
  type StoredValue,
} from '@resourcery/core/store';
import { type AliasedRawBuilder, sql } from 'kysely';
import type { StoreCatalog } from '../ddl/catalog.js';
import type { StoredJoin } from '../ddl/join-copies.js';
import type { SqlDialectSpec } from '../dialects/dialect.js';
import { oneOff } from '../execute/statement-cache.js';
import type { Db } from '../store/collection-plan.js';

/** The columns a write put in a record's row, as it sent them to the database. */
type Columns = Readonly<Record<string, unknown>>;

/** Whether a column's value is SQL the database computes (which a copy must read, not compute again). */
const isExpression = (value: unknown) => typeof value === 'object' && value !== null && 'toOperationNode' in value;

// The sets of ids a collection's records hold through join tables (many-to-many relations,
// `labelIds`): read in the record's own statement as a correlated aggregate (one statement per
// page, whatever its size), written with the record in one transaction, each join row with its
// record's copied fields (ddl/join-copies.ts).

/** Ascending, as every store answers them. */
function ascending(a: Id, b: Id): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether the ids are ascending already. */
function inOrder(ids: readonly Id[]): boolean {
  for (let i = 1; i < ids.length; i++) if (ascending(ids[i - 1] as Id, ids[i] as Id) > 0) return false;
  return true;
}

/** The ids of an aggregate's answer: a JSON array (as text or parsed), comma-separated text, or `null`. */
function idsOfText(raw: unknown): Id[] {
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
  const parts: unknown[] = Array.isArray(text)
    ? text
    : typeof text !== 'string' || text === ''
      ? []
      : text.startsWith('[')
        ? (JSON.parse(text) as unknown[])
        : text.split(',');
  // Integer ids are digits (or numbers); uuids never are.
  return parts.map((part) => (typeof part === 'number' || /^\d+$/.test(String(part)) ? Number(part) : String(part)));
}

/**
 * The id sets of one collection's table, worked out once: their select expressions, how their
 * aggregated text becomes the ids, and their writes.
 *
 * @example
 * ```ts
 * const sets = new IdSets(schema, postgres, new StoreCatalog('api_'));
 * db.selectFrom('api_issues').select(['id', 'title']).select(sets.selections('api_issues'));
 * ```
 */
export class IdSets {
  readonly sets: readonly IdSet[];
  readonly fields: ReadonlySet<string>;

  readonly #table: string;
  /** The attributes a create that leaves them out writes as NULL (no default, not a timestamp). */
  readonly #nullWhenLeftOut: ReadonlySet<string>;

  constructor(
    schema: CollectionSchema,
    readonly dialect: SqlDialectSpec,
    /** The store's tables and the schemas it keeps them in (a join's copies: ddl/join-copies.ts). */
    readonly catalog: Pick<StoreCatalog, 'table' | 'schema'>,
  ) {
    this.sets = schema.sets ?? [];
    this.fields = new Set(this.sets.map((set) => set.field));
    this.#table = catalog.table(schema.name);
    this.#nullWhenLeftOut = new Set(
      schema.attributes.filter((a) => a.default === undefined && !a.timestamp).map((a) => a.name),
    );
  }

  /** The table of a collection of the store, by its name (with the store's prefix). */
  tableOf(name: string): string {
    return this.catalog.table(name);
  }

  /** The fields of the records that the join table of `set` copies onto its rows (`orgId`, `archivedAt`). */
  copies(set: IdSet): readonly string[] {
    return (this.catalog.schema(set.through) as StoredJoin | undefined)?.copies?.fields ?? [];
  }

  /** The sets a list reads: every one, or those among `select`. */
  chosen(select?: readonly string[]): IdSet[] {
    return select ? this.sets.filter((set) => select.includes(set.field)) : [...this.sets];
  }

  /**
   * Each set as a column of the record's own statement: its ids as text, comma-separated, from a
   * subquery correlated to `outer` (the table or derived table the statement reads the records from).
   */
  selections(outer: string, sets: readonly IdSet[] = this.sets): AliasedRawBuilder<string | null, string>[] {
    return sets.map((set) => {
      const value = sql.ref(`resourcery_join.${set.value}`);
      // Text in each database's own aggregate: MySQL and MariaDB's JSON array (GROUP_CONCAT
      // would cut it at group_concat_max_len), PostgreSQL's string_agg, SQLite's group_concat.
      const name = this.dialect.name;
      const text =
        name === 'postgres'
          ? sql`string_agg(cast(${value} as text), ',')`
          : name === 'sqlite'
            ? sql`group_concat(${value})`
            : sql`json_arrayagg(${value})`;
      return sql<
        string | null
      >`(select ${text} from ${sql.table(this.tableOf(set.through))} as resourcery_join where ${sql.ref(`resourcery_join.${set.key}`)} = ${sql.ref(`${outer}.id`)})`.as(
        set.field,
      );
    });
  }

  /** The record with each set of `sets` read from its row's aggregated text (`[]` for none). */
  read(row: Record<string, unknown>, record: StoredRecord, sets: readonly IdSet[] = this.sets): StoredRecord {
    for (const { field } of sets) {
      const ids = idsOfText(row[field]);
      // Most aggregates come in order (the join table's unique index): sorted only when not.
      record[field] = (inOrder(ids) ? ids : ids.sort(ascending)) as unknown as StoredValue;
    }
    return record;
  }

  /** The record as a create that gave these sets answers it: each set's ids ascending, `[]` when not given. */
  withGiven(record: StoredRecord, given: readonly [IdSet, readonly Id[]][]): StoredRecord {
    for (const set of this.sets) {
      const ids = given.find(([one]) => one === set)?.[1] ?? [];
      record[set.field] = [...ids].sort(ascending) as unknown as StoredValue;
    }
    return record;
  }

  /** The sets a write gives (the field's array of ids), by set. */
  given(values: Readonly<Record<string, unknown>>): [IdSet, readonly Id[]][] {
    const given: [IdSet, readonly Id[]][] = [];
    for (const set of this.sets) {
      const ids = values[set.field];
      if (ids !== undefined && ids !== null) given.push([set, ids as readonly Id[]]);
    }
    return given;
  }

  /**
   * Replaces a record's join rows of one set by those of `ids`, on the write's transaction
   * (`columns`: what the write put in the record's row, `created` when it made the row, see {@link add}).
   */
  async write(db: Db, set: IdSet, id: Id, ids: readonly Id[], columns?: Columns, created = false): Promise<void> {
    await db.deleteFrom(this.tableOf(set.through)).where(set.key, '=', id).execute();
    await this.add(db, set, [[id, ids, columns]], created);
  }

  /**
   * After a write of a record's row, its join rows' copies of the fields it changed (an archive,
   * a restore), on the write's transaction: one UPDATE per set that copies one of `columns`.
   */
  async copy(db: Db, id: Id, columns: Readonly<Record<string, unknown>>): Promise<void> {
    for (const set of this.sets) {
      const changed = this.copies(set).filter((field) => field in columns);
      if (changed.length === 0) continue;
      const values = Object.fromEntries(changed.map((field) => [field, columns[field]]));
      await db.updateTable(this.tableOf(set.through)).set(values).where(set.key, '=', id).execute();
    }
  }

  /**
   * Adds the join rows of one set for records that have none yet (each record's id with its
   * ids), in one multi-row INSERT (more when the rows outgrow the parameters of a statement).
   * The fields each row copies from its record are the values the write put in the record's row
   * (its `columns`; NULL for one that a create, `created`, left out and that has no default),
   * else read from the row, already written, by a subquery per join row: planning several
   * hundred of those made a bulk create's join rows take 40 ms on PostgreSQL (docs/performance.md,
   * "Bulk creates").
   */
  async add(
    db: Db,
    set: IdSet,
    records: readonly (readonly [Id, readonly Id[], Columns?])[],
    created = false,
  ): Promise<void> {
    const copies = this.copies(set);
    // A value left undefined is no value (Kysely leaves the column out): like a field not given.
    const known = (field: string, columns: Columns | undefined) =>
      columns !== undefined &&
      (columns[field] !== undefined ? !isExpression(columns[field]) : created && this.#nullWhenLeftOut.has(field));
    const copied = (id: Id, columns: Columns | undefined) =>
      Object.fromEntries(
        copies.map((field) => [
          field,
          known(field, columns)
            ? (columns?.[field] ?? null)
            : sql`(select ${sql.ref(field)} from ${sql.table(this.#table)} where ${sql.ref('id')} = ${id})`,
        ]),
      );
    const rows = records.flatMap(([id, ids, columns]) =>
      ids.map((other) => ({ [set.key]: id, [set.value]: other, ...copied(id, columns) })),
    );
    const most = Math.floor(this.dialect.maxParameters / (2 + copies.length));
    try {
      for (let start = 0; start < rows.length; start += most) {
        const insert = db.insertInto(this.tableOf(set.through)).values(rows.slice(start, start + most));
        await db.executeQuery(oneOff(insert.compile()));
      }
    } catch (error) {
      // The ids were checked before the write; one gone meanwhile breaks the join's foreign key.
      if (/foreign key|violates|constraint/i.test(String((error as Error).message))) {
        throw new ConstraintViolation('foreign_key', set.field, error);
      }
      throw error;
    }
  }
}
