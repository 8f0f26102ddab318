import type {
  Collection,
  CollectionSchema,
  Condition,
  ListQuery,
  ListResult,
  StoredRecord,
} from '@resourcery/core/store';
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { SqlDialectSpec } from './dialects/dialect.js';
import { columnValues, toParameter, toRecord } from './row-mapping.js';
import { translateDriverError } from './translate-error.js';

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time, from the declaration
type Db = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: as above
type Eb = ExpressionBuilder<any, any>;

/** State shared by the stores bound to one open transaction. */
interface OpenTransaction {
  savepoints: number;
}

/** Marks an error thrown by transaction work, so that it is rethrown untouched. */
class WorkFailure {
  constructor(readonly error: unknown) {}
}

/**
 * The {@link Collection} of one table. Every query is built from the schema's attribute names and
 * sends values as parameters; filtering, ordering, paging and counting run in the database.
 * A store bound to a transaction runs everything on the transaction's connection.
 *
 * @example
 * ```ts
 * const books = new SqlCollection(db, 'api_books', schema, postgres);
 * await books.create({ name: 'Dune' });
 * ```
 */
export class SqlCollection implements Collection {
  readonly schema: CollectionSchema;
  readonly #db: Db;
  readonly #table: string;
  readonly #dialect: SqlDialectSpec;
  readonly #columns: string[];
  readonly #nullable: Set<string>;
  readonly #transaction: OpenTransaction | undefined;

  constructor(db: Db, table: string, schema: CollectionSchema, dialect: SqlDialectSpec, transaction?: OpenTransaction) {
    this.schema = schema;
    this.#db = db;
    this.#table = table;
    this.#dialect = dialect;
    this.#columns = schema.attributes.map((attribute) => attribute.name);
    this.#nullable = new Set(schema.attributes.filter((a) => a.nullable).map((a) => a.name));
    this.#transaction = transaction;
  }

  async list(query: ListQuery): Promise<ListResult> {
    return this.#run(async (db) => {
      let select = db.selectFrom(this.#table).select(this.#columns);
      if (query.where.length > 0) select = select.where((eb) => this.#matches(eb, query.where));
      for (const { field, direction } of query.order) {
        const column = this.#column(field);
        // Every store puts nulls first ascending, as memory does, whatever the database's default.
        select =
          !this.#dialect.nullsSortFirst && this.#nullable.has(column)
            ? select.orderBy(column, (ob) => (direction === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast()))
            : select.orderBy(column, direction);
      }
      const rows = await select.limit(query.limit).offset(query.offset).execute();
      const records = rows.map((row) => toRecord(row, this.schema));
      if (!query.count) return { records };
      // A partial page that is not past the end tells the total without a second query.
      if (rows.length < query.limit && (rows.length > 0 || query.offset === 0)) {
        return { records, total: query.offset + rows.length };
      }
      let count = db.selectFrom(this.#table).select((eb) => eb.fn.countAll().as('total'));
      if (query.where.length > 0) count = count.where((eb) => this.#matches(eb, query.where));
      const { total } = await count.executeTakeFirstOrThrow();
      return { records, total: Number(total) };
    });
  }

  async find(id: number, where: readonly Condition[]): Promise<StoredRecord | undefined> {
    return this.#run(async (db) => this.#selectOne(db, id, where));
  }

  async create(values: Readonly<Partial<StoredRecord>>): Promise<StoredRecord> {
    const columns = columnValues(values, this.schema, this.#dialect);
    const empty = Object.keys(columns).length === 0;
    return this.#run(async (db) => {
      if (this.#dialect.supportsReturning) {
        const insert = empty ? db.insertInto(this.#table).defaultValues() : db.insertInto(this.#table).values(columns);
        return toRecord(await insert.returning(this.#columns).executeTakeFirstOrThrow(), this.schema);
      }
      // No RETURNING (MySQL): read the row back in the same transaction. MySQL has no DEFAULT
      // VALUES either; a NULL id takes the next AUTO_INCREMENT.
      return this.#atomic(db, async (tx) => {
        const result = await tx
          .insertInto(this.#table)
          .values(empty ? { id: null } : columns)
          .executeTakeFirstOrThrow();
        return (await this.#selectOne(tx, Number(result.insertId), [])) as StoredRecord;
      });
    });
  }

  async update(
    id: number,
    changes: Readonly<Partial<StoredRecord>>,
    where: readonly Condition[],
  ): Promise<StoredRecord | undefined> {
    const columns = columnValues(changes, this.schema, this.#dialect);
    if (Object.keys(columns).length === 0) return this.find(id, where);
    return this.#run(async (db) => {
      // One UPDATE of the given columns: concurrent updates of other columns are never lost.
      const update = (on: Db) =>
        on
          .updateTable(this.#table)
          .set(columns)
          .where((eb) => this.#matches(eb, where, id));
      if (this.#dialect.supportsReturning) {
        const row = await update(db).returning(this.#columns).executeTakeFirst();
        return row && toRecord(row, this.schema);
      }
      return this.#atomic(db, async (tx) => {
        // mysql2 sets CLIENT_FOUND_ROWS: the count is of matched rows, changed or not.
        const result = await update(tx).executeTakeFirstOrThrow();
        return result.numUpdatedRows === 0n ? undefined : this.#selectOne(tx, id, []);
      });
    });
  }

  async destroy(id: number, where: readonly Condition[]): Promise<boolean> {
    return this.#run(async (db) => {
      const result = await db
        .deleteFrom(this.#table)
        .where((eb) => this.#matches(eb, where, id))
        .executeTakeFirstOrThrow();
      return result.numDeletedRows > 0n;
    });
  }

  /**
   * Runs `work` in a database transaction (committed when it resolves, rolled back when it
   * rejects). A nested call reuses the outer transaction behind a savepoint, so that its own
   * failure undoes only its own writes.
   */
  async transaction<T>(work: (store: Collection) => Promise<T>): Promise<T> {
    const wrapped = async (store: Collection): Promise<T> => {
      try {
        return await work(store);
      } catch (error) {
        throw new WorkFailure(error);
      }
    };
    try {
      if (this.#transaction) return await this.#savepoint(this.#transaction, wrapped);
      return await this.#db
        .transaction()
        .execute((tx) => wrapped(new SqlCollection(tx, this.#table, this.schema, this.#dialect, { savepoints: 0 })));
    } catch (error) {
      if (error instanceof WorkFailure) throw error.error;
      throw this.#translate(error);
    }
  }

  async #savepoint<T>(open: OpenTransaction, work: (store: Collection) => Promise<T>): Promise<T> {
    const name = sql.id(`resourcery_${++open.savepoints}`);
    await sql`savepoint ${name}`.execute(this.#db);
    try {
      const result = await work(this);
      await sql`release savepoint ${name}`.execute(this.#db);
      return result;
    } catch (error) {
      await sql`rollback to savepoint ${name}`.execute(this.#db);
      throw error;
    }
  }

  /** Runs `work` on this store's transaction, or in a new one. */
  #atomic<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
    return this.#transaction ? work(db) : db.transaction().execute(work);
  }

  async #run<T>(work: (db: Db) => Promise<T>): Promise<T> {
    try {
      return await work(this.#db);
    } catch (error) {
      throw this.#translate(error);
    }
  }

  #translate(error: unknown): unknown {
    return translateDriverError(error, this.schema, [this.#dialect]);
  }

  async #selectOne(db: Db, id: number, where: readonly Condition[]): Promise<StoredRecord | undefined> {
    const row = await db
      .selectFrom(this.#table)
      .select(this.#columns)
      .where((eb) => this.#matches(eb, where, id))
      .executeTakeFirst();
    return row && toRecord(row, this.schema);
  }

  /** A column name checked against the schema, so that nothing else ever reaches the SQL. */
  #column(field: string): string {
    if (!this.#columns.includes(field)) throw new TypeError(`${this.schema.name} has no attribute "${field}"`);
    return field;
  }

  #matches(eb: Eb, where: readonly Condition[], id?: number): Expression<SqlBool> {
    const parts = where.map((condition) => this.#condition(eb, condition));
    if (id !== undefined) parts.unshift(eb('id', '=', id));
    return parts.length === 1 ? (parts[0] as Expression<SqlBool>) : eb.and(parts);
  }

  /** `field IN (values)`, with `null` among the values meaning `field IS NULL`. */
  #condition(eb: Eb, { field, values }: Condition): Expression<SqlBool> {
    const column = this.#column(field);
    const present = values.filter((value) => value !== null).map((value) => toParameter(value, this.#dialect));
    const parts: Expression<SqlBool>[] = [];
    if (present.length === 1) parts.push(eb(column, '=', present[0]));
    else if (present.length > 1) parts.push(eb(column, 'in', present));
    if (present.length < values.length) parts.push(eb(column, 'is', null));
    if (parts.length === 0) return sql<SqlBool>`1 = 0`;
    return parts.length === 1 ? (parts[0] as Expression<SqlBool>) : eb.or(parts);
  }
}
