import {
  type CollectionSchema,
  type Condition,
  ConstraintViolation,
  type Id,
  type ListQuery,
  type Order,
  type ServerValues,
  type StoredRecord,
  serverValues,
} from '@resourcery/core/store';
import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type OrderByItemBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import type { Reference, StoreCatalog } from '../ddl/catalog.js';
import type { SqlDialectSpec } from '../dialects/dialect.js';
import { Shapes } from '../execute/shapes.js';
import { FilterSql } from '../query/filter-sql.js';
import { IdSets } from '../query/id-sets.js';
import { PER_GROUP, perGroupSource } from '../query/per-group.js';
import { RowCodec } from '../query/row-mapping.js';
import type { ReplicaSet } from './replicas.js';
import type { RetryPolicy } from './retries.js';

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time, from the declaration
export type Db = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: as above
type Eb = ExpressionBuilder<any, any>;
// biome-ignore lint/suspicious/noExplicitAny: as above
export type Select = SelectQueryBuilder<any, any, any>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Everything about one collection's table that does not change from query to query, worked out
 * once: the table name, the row codec, the SQL of its conditions ({@link FilterSql}, which also
 * reaches the other collections of the store for relation filters), and the paths by which a
 * destroy may reach records that forbid it. Shared by the collection and its transaction-bound copies.
 *
 * @example
 * ```ts
 * const plan = new CollectionPlan(schema, postgres, catalog);
 * const rows = await plan.listSelect(db, query).execute();
 * ```
 */
export class CollectionPlan {
  readonly table: string;
  readonly codec: RowCodec;
  readonly filters: FilterSql;
  /** The sets of ids the records hold through join tables (`labelIds`). */
  readonly idSets: IdSets;
  /** The collection's statements, compiled once per shape. */
  readonly shapes = new Shapes();
  /** What every write adds: a uuid id, timestamps, defaults (the same in and out of transactions). */
  readonly server: ServerValues;
  readonly #uuidIds: boolean;
  /** The filters of the other collections that relation filters reach, made when first needed. */
  readonly #related = new Map<CollectionSchema, FilterSql>();
  #restrictPaths: { version: number; paths: readonly (readonly Reference[])[] } | undefined;

  constructor(
    readonly schema: CollectionSchema,
    /** MySQL's becomes MariaDB's when the store finds a MariaDB server (the same queries; its INSERT answers rows). */
    public dialect: SqlDialectSpec,
    readonly catalog: StoreCatalog,
    /** How the store runs a write outside a transaction again after a conflict (none: never). */
    readonly retries?: RetryPolicy,
    /** Where the reads outside a transaction go, when the store has read replicas. */
    readonly replicas?: ReplicaSet,
  ) {
    this.table = catalog.table(schema.name);
    this.codec = new RowCodec(schema, dialect);
    this.server = serverValues(schema);
    this.filters = new FilterSql(schema, this.table, this.codec, dialect, (name) => this.#filtersOf(name));
    this.#uuidIds = schema.attributes[0]?.type === 'uuid';
    this.idSets = new IdSets(schema, dialect, catalog);
  }

  /** Whether `id` can be an id of this collection (else nothing is looked up: a uuid column refuses other text). */
  validId(id: Id): boolean {
    return this.#uuidIds ? typeof id === 'string' && UUID.test(id) : Number.isSafeInteger(id);
  }

  /** A column name checked against the schema, so that nothing else ever reaches the SQL. */
  column(field: string): string {
    return this.filters.column(field);
  }

  /** The conditions (and the id, when given) as one SQL condition; see {@link FilterSql}. */
  matches(eb: Eb, where: readonly Condition[], id?: Id): Expression<SqlBool> {
    return this.filters.matches(eb, where, id);
  }

  /** The filters of a collection of the store by its name, in its current schema. */
  #filtersOf(name: string): FilterSql | undefined {
    if (name === this.schema.name) return this.filters;
    const schema = this.catalog.schema(name);
    if (!schema) return undefined;
    let filters = this.#related.get(schema);
    if (!filters) {
      const table = this.catalog.table(name);
      filters = new FilterSql(schema, table, new RowCodec(schema, this.dialect), this.dialect, (n) =>
        this.#filtersOf(n),
      );
      this.#related.set(schema, filters);
    }
    return filters;
  }

  /** How one sort key orders: nulls first ascending and last descending, in every database. */
  direction(order: Order): 'asc' | 'desc' | ((ob: OrderByItemBuilder) => OrderByItemBuilder) {
    if (this.dialect.nullsSortFirst || !this.filters.nullable(order.field)) return order.direction;
    return order.direction === 'asc' ? (ob) => ob.asc().nullsFirst() : (ob) => ob.desc().nullsLast();
  }

  /** `select` narrowed to the records matching `where`. */
  filtered(select: Select, where: readonly Condition[]): Select {
    return where.length === 0 ? select : select.where((eb) => this.matches(eb, where));
  }

  /** `select` in `order`, nulls placed as {@link direction} says. */
  ordered(select: Select, order: readonly Order[]): Select {
    for (const key of order) select = select.orderBy(this.column(key.field), this.direction(key));
    return select;
  }

  /** `rows` as `query`'s page: past `after`, ordered, limited, offset (`!== 0`: a slot in shapes.ts templates). */
  paged(rows: Select, query: ListQuery): Select {
    const { after, order } = query;
    const paged = this.ordered(after ? rows.where((eb) => this.filters.after(eb, order, after)) : rows, order);
    return query.offset !== 0 ? paged.limit(query.limit).offset(query.offset) : paged.limit(query.limit);
  }

  /**
   * The columns a list selects (every one, or `id` and the `select`ed ones; the sets of ids last,
   * by their field) and how its rows become records.
   */
  listColumns(query: ListQuery): {
    columns: readonly string[];
    toRecord: (row: Record<string, unknown>) => StoredRecord;
  } {
    const sets = this.idSets.chosen(query.select);
    const own = query.select
      ? this.codec.selected(query.select)
      : { columns: this.codec.columns, toRecord: (row: Record<string, unknown>) => this.codec.toRecord(row) };
    if (sets.length === 0) return own;
    return {
      columns: [...own.columns, ...sets.map((set) => set.field)],
      toRecord: (row) => this.idSets.read(row, own.toRecord(row), sets),
    };
  }

  /**
   * The records of a page ({@link paged}: with the keyset predicate of `after`, no OFFSET is needed). With `perGroup`,
   * the first records of each group are chosen in a derived table ({@link perGroupSource}: one `ORDER BY … LIMIT` per
   * group), and the page is taken from them. Only the columns of {@link listColumns} are read; `from`: rows read
   * instead of the table's (query/walk-page.ts). A later page, or one with sets of ids, takes its ids first
   * (`id IN (… LIMIT … OFFSET …)`): skipped records read from an index alone, sorts carry keys.
   */
  listSelect(db: Db, query: ListQuery, columns = this.listColumns(query).columns, from?: Select): Select {
    const { fields } = this.idSets;
    const own = fields.size === 0 ? columns : columns.filter((column) => !fields.has(column));
    const later = query.offset !== 0 || own.length < columns.length;
    const deferred = later && !query.perGroup && !from && !query.where.some((condition) => condition.search);
    let select = query.perGroup
      ? perGroupSource(this, db, query).select(own)
      : deferred
        ? db.selectFrom(this.table).select(own)
        : this.filtered((from ?? db.selectFrom(this.table)).select(own), query.where);
    if (own.length < columns.length) {
      const sets = this.idSets.chosen(columns.filter((column) => fields.has(column)));
      select = select.select(this.idSets.selections(query.perGroup ? PER_GROUP : this.table, sets));
    }
    if (!deferred) return this.paged(select, query);
    const ids = this.paged(this.filtered(db.selectFrom(this.table).select('id'), query.where), query);
    return this.ordered(select.where('id', 'in', db.selectFrom(ids.as('resourcery_page')).select('id')), query.order);
  }

  /** How many records the query matches, ignoring its page (`limit`, `offset` and `after`). */
  countSelect(db: Db, query: ListQuery): Select {
    const from = query.perGroup
      ? perGroupSource(this, db, query)
      : this.filtered(db.selectFrom(this.table), query.where);
    return from.select((eb) => eb.fn.countAll().as('total'));
  }

  /**
   * The chains of foreign keys by which destroying one of these records reaches records that
   * forbid it: a `restrict` key referring to it, or one referring to records its `cascade` keys
   * destroy with it. Each chain ends with the forbidding key.
   */
  restrictPaths(): readonly (readonly Reference[])[] {
    const { catalog } = this;
    if (this.#restrictPaths?.version === catalog.version) return this.#restrictPaths.paths;
    const paths: Reference[][] = [];
    const walk = (collection: string, path: readonly Reference[]) => {
      for (const reference of catalog.referencesTo(collection)) {
        const { onDelete } = reference.key;
        if (onDelete === 'restrict') paths.push([...path, reference]);
        // A collection already on the path (one referring to itself) is left to the database.
        else if (onDelete === 'cascade' && !path.some((step) => step.from === reference.from)) {
          walk(reference.from.name, [...path, reference]);
        }
      }
    };
    walk(this.schema.name, []);
    this.#restrictPaths = { version: catalog.version, paths };
    return paths;
  }

  /**
   * Fails with a `referenced` violation, naming the relation, when a record that forbids it is
   * reached by one of the {@link restrictPaths} from the record `id` (if it matches `where`).
   */
  async refuseRestricted(db: Db, id: Id, where: readonly Condition[]): Promise<void> {
    for (const path of this.restrictPaths()) {
      if (await this.reaches(db, path, id, where)) {
        const { from, key } = path[path.length - 1] as Reference;
        throw new ConstraintViolation('referenced', undefined, undefined, { collection: from.name, field: key.field });
      }
    }
  }

  /** Whether a record reached by `path` from the record `id` (if it matches `where`) exists. */
  async reaches(db: Db, path: readonly Reference[], id: Id, where: readonly Condition[]): Promise<boolean> {
    // The ids at each step: the record itself (when it is in scope), then those referring to them.
    let ids: Id | Select =
      where.length === 0
        ? id
        : db
            .selectFrom(this.table)
            .select('id')
            .where((eb) => this.matches(eb, where, id));
    for (const [index, { from, key }] of path.entries()) {
      const table = this.catalog.table(from.name);
      const step = db.selectFrom(table).where(key.field, typeof ids === 'object' ? 'in' : '=', ids);
      if (index === path.length - 1) {
        return (await step.select(sql`1`.as('found')).limit(1).executeTakeFirst()) !== undefined;
      }
      ids = step.select('id');
    }
    return false;
  }
}
