import {
  type AggregateQuery,
  type AggregateRow,
  type Collection,
  type CollectionSchema,
  type Condition,
  type Id,
  type ListQuery,
  type ListResult,
  type StoredRecord,
  type StoreRetry,
} from '@resourcery/core/store';
import { execute } from '../execute/execute.js';
import { conditionShape, named, withValues, writeShape } from '../execute/shapes.js';
import { aggregateRows } from '../query/aggregate-sql.js';
import { type Atomic, insertMany } from '../query/create-many.js';
import { afterRowUpdate, createWithSets, type ReadOne, updateWithSets } from '../query/set-writes.js';
import { pageRows } from '../query/walk-page.js';
import type { CollectionPlan, Db } from './collection-plan.js';
import { type Doing, runStatement } from './run-statement.js';
import { inTransaction, type OpenTransaction } from './run-transaction.js';
import { type ErrorContext, translateDriverError } from './translate-error.js';

/**
 * The {@link Collection} of one table. Every query is built from the schema's attribute names and
 * sends values as parameters; filtering, ordering, paging and counting run in the database.
 * A collection bound to a transaction runs everything on the transaction's connection.
 *
 * @example
 * ```ts
 * const books = new SqlCollection(new CollectionPlan(schema, postgres, catalog), db);
 * await books.create({ name: 'Dune' });
 * ```
 */
export class SqlCollection implements Collection {
  readonly schema: CollectionSchema;
  readonly #plan: CollectionPlan;
  readonly #db: Db;
  readonly #transaction: OpenTransaction | undefined;
  readonly #onRetry: ((retry: StoreRetry) => void) | undefined;
  /** Whether its reads outside a transaction stay on the primary (never on a read replica). */
  readonly #primary: boolean;
  /** Reads one record with its sets, on a transaction (query/set-writes.ts). */
  readonly #readOne: ReadOne = (tx, id, where) => this.#selectOne(tx, id, where);

  constructor(
    plan: CollectionPlan,
    db: Db,
    transaction?: OpenTransaction,
    onRetry?: (retry: StoreRetry) => void,
    primary = false,
  ) {
    this.schema = plan.schema;
    this.#plan = plan;
    this.#db = db;
    this.#transaction = transaction;
    this.#onRetry = onRetry;
    this.#primary = primary;
  }

  /** This collection, telling `listener` of each retry of its calls (those outside a transaction). */
  reportingRetries(listener: (retry: StoreRetry) => void): Collection {
    return this.#transaction ? this : new SqlCollection(this.#plan, this.#db, undefined, listener, this.#primary);
  }

  /** This collection reading from the primary (a write action's reads see its writes); itself without replicas. */
  primary(): Collection {
    if (this.#transaction || this.#primary || !this.#plan.replicas) return this;
    return new SqlCollection(this.#plan, this.#db, undefined, this.#onRetry, true);
  }

  async list(query: ListQuery): Promise<ListResult> {
    const plan = this.#plan;
    return this.#read(async (db) => {
      const { columns, toRecord } = plan.listColumns(query);
      const { rows, counted } = await pageRows(plan, db, query, columns);
      return { records: rows.map(toRecord), ...counted };
    });
  }

  /** Statistics in the database: see {@link aggregateRows}. */
  async aggregate(query: AggregateQuery): Promise<AggregateRow[]> {
    return this.#read((db) => aggregateRows(this.#plan, db, query));
  }

  async find(id: Id, where: readonly Condition[]): Promise<StoredRecord | undefined> {
    if (!this.#plan.validId(id)) return undefined;
    return this.#read(async (db) => this.#selectOne(db, id, where));
  }

  async create(values: Readonly<Partial<StoredRecord>>): Promise<StoredRecord> {
    const plan = this.#plan;
    const columns = plan.codec.toColumns(plan.server.create(values), true);
    if (plan.idSets.sets.length > 0 || !plan.dialect.supportsReturning) {
      // The row, its join rows and its words (MySQL), read back in one transaction.
      return this.#withSets(columns, (tx) =>
        createWithSets(plan, tx, columns, plan.idSets.given(values), this.#readOne),
      );
    }
    const empty = Object.keys(columns).length === 0;
    return this.#run(
      async (db) => {
        const shape = writeShape('create', columns, 0, []);
        const statement = plan.shapes.compiled(shape.key, shape.values, (values) => {
          const insert = empty
            ? db.insertInto(plan.table).defaultValues()
            : db.insertInto(plan.table).values(named(columns, values));
          return insert.returning(plan.codec.columns);
        });
        const { rows } = await execute<Record<string, unknown>>(db, statement);
        return plan.codec.toRecord(rows[0] as Record<string, unknown>);
      },
      { written: [columns] },
    );
  }

  /** Several records in one multi-row INSERT, all or none, and their join rows in one more: see {@link insertMany}. */
  async createMany(values: readonly Readonly<Partial<StoredRecord>>[]): Promise<StoredRecord[]> {
    const plan = this.#plan;
    const rows = values.map((one) => plan.codec.toColumns(plan.server.create(one), true));
    const given = values.map((one) => plan.idSets.given(one));
    const atomic: Atomic = (work) => inTransaction(this.#db, this.#transaction, work, (error) => error);
    return this.#run((db) => insertMany(plan, db, rows, given, atomic), { written: rows });
  }

  async update(id: Id, changes: Readonly<Partial<StoredRecord>>, where: readonly Condition[]) {
    const plan = this.#plan;
    const columns = plan.codec.toColumns(plan.server.update(changes), false);
    const sets = plan.idSets.given(changes);
    if (sets.length > 0 && plan.validId(id)) {
      return this.#withSets(columns, (tx) => updateWithSets(plan, tx, { id, columns, sets, where }, this.#readOne));
    }
    if (Object.keys(columns).length === 0 || !plan.validId(id)) return this.primary().find(id, where);
    return this.#run(
      async (db) => {
        // One UPDATE of the given columns: concurrent updates of other columns are never lost.
        const shape = writeShape('update', columns, id, where);
        const count = Object.keys(columns).length;
        const update = (on: Db, values: readonly unknown[]) =>
          on
            .updateTable(plan.table)
            .set(named(columns, values))
            .where((eb) => plan.matches(eb, withValues(where, values, count + 1), values[count] as Id));
        if (plan.dialect.supportsReturning && plan.idSets.sets.length === 0) {
          const statement = plan.shapes.compiled(shape.key, shape.values, (values) =>
            update(db, values).returning(plan.codec.columns),
          );
          const row = (await execute<Record<string, unknown>>(db, statement)).rows[0];
          return row && plan.codec.toRecord(row);
        }
        return this.#atomic(db, async (tx) => {
          // mysql2 sets CLIENT_FOUND_ROWS: the count is of matched rows, changed or not.
          const result = await update(tx, shape.values).executeTakeFirstOrThrow();
          if (result.numUpdatedRows === 0n) return undefined;
          await afterRowUpdate(plan, tx, id, columns);
          return this.#selectOne(tx, id, []);
        });
      },
      { written: [columns] },
    );
  }

  /**
   * Deletes the record. Records referring to it by a `restrict` key (or referring to records
   * that its `cascade` keys would take along) are looked for first, so that the violation names
   * the relation in every database; the database's foreign keys stay the backstop, and do the
   * cascading and nullifying.
   */
  async destroy(id: Id, where: readonly Condition[]): Promise<boolean> {
    const plan = this.#plan;
    if (!plan.validId(id)) return false;
    return this.#run(
      async (db) => {
        await plan.refuseRestricted(db, id, where);
        const remove = db.deleteFrom(plan.table).where((eb) => plan.matches(eb, where, id));
        if (plan.dialect.supportsReturning) {
          // Answering rows, a SQLite delete is committed with the other writes of its turn.
          return (await execute(db, remove.returning('id').compile())).rows.length > 0;
        }
        return (await remove.executeTakeFirstOrThrow()).numDeletedRows > 0n;
      },
      { destroying: true },
    );
  }

  /**
   * Runs `work` in a database transaction (committed when it resolves, rolled back when it
   * rejects). A nested call reuses the outer transaction behind a savepoint, so that its own
   * failure undoes only its own writes.
   */
  async transaction<T>(work: (collection: Collection) => Promise<T>): Promise<T> {
    return inTransaction(
      this.#db,
      this.#transaction,
      (db, open) => work(db === this.#db ? this : new SqlCollection(this.#plan, db, open)),
      (error) => this.#translate(error, {}),
    ).finally(() => this.#transaction || this.#plan.replicas?.wrote());
  }

  /** A write of the row and its join rows (and words) in one transaction (query/set-writes.ts). */
  #withSets<T>(columns: Record<string, unknown>, work: (tx: Db) => Promise<T>): Promise<T> {
    return this.#run((db) => this.#atomic(db, work), { written: [columns] });
  }

  /** Runs `work` on this collection's transaction, or in a new one. */
  #atomic<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
    return this.#transaction ? work(db) : db.transaction().execute(work);
  }

  /** Runs one call's statements (again after a conflict, outside a transaction); see {@link runStatement}. */
  #run<T>(work: (db: Db) => Promise<T>, doing: Doing = {}): Promise<T> {
    const running = runStatement(this.#plan, this.#db, this.#transaction, work, doing, this.#onRetry);
    const { replicas } = this.#plan;
    const writes = doing.written !== undefined || doing.destroying === true;
    return replicas && writes && !this.#transaction ? running.finally(() => replicas.wrote()) : running;
  }

  /** A read: outside a transaction, on a read replica when the store has one that may serve it (replicas.ts). */
  #read<T>(work: (db: Db) => Promise<T>): Promise<T> {
    const replicas = this.#transaction || this.#primary ? undefined : this.#plan.replicas;
    return replicas ? replicas.read(work, () => this.#run(work)) : this.#run(work);
  }

  #translate(error: unknown, context: ErrorContext): unknown {
    return translateDriverError(error, this.schema, [this.#plan.dialect], { ...context, catalog: this.#plan.catalog });
  }

  async #selectOne(db: Db, id: Id, where: readonly Condition[]): Promise<StoredRecord | undefined> {
    const plan = this.#plan;
    const shape = conditionShape(where);
    const key = shape.key === undefined ? undefined : `find:${shape.key}`;
    const statement = plan.shapes.compiled(key, [id, ...shape.values], (values) =>
      db
        .selectFrom(plan.table)
        .select(plan.codec.columns)
        .select(plan.idSets.selections(plan.table))
        .where((eb) => plan.matches(eb, withValues(where, values, 1), values[0] as Id)),
    );
    const row = (await execute<Record<string, unknown>>(db, statement)).rows[0];
    return row && plan.idSets.read(row, plan.codec.toRecord(row));
  }
}
