import type { Condition, ListQuery, ListResult, Scalar } from '@resourcery/core/store';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { execute } from '../execute/execute.js';
import { listShape, listWithValues } from '../execute/shapes.js';
import type { CollectionPlan, Db, Select } from '../store/collection-plan.js';
import type { FilterSql } from './filter-sql.js';
import { onJoinCopies } from './join-count.js';
import { matchedPage, matchesOnce, totalOf, withTotal } from './list-total.js';

// A page filtered through a join table (`filter[labels.name]=bug`) read by walking the list's
// order: the first records of the order that the other conditions keep (the tenant, the
// archive...), read from the order's index, each tested for the semi-join until the page is full.
// A label on some percent of the records gives a page of 25 after a few hundred of them, where
// the usual plan (every record of the label, then a sort) reads them all. The walk is bounded:
// when its records hold too few matches, it goes on once from its last match, then the usual
// statement is asked (see {@link walkedPage}).

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time, from the declaration
type Eb = ExpressionBuilder<any, any>;

/** The most records a walk reads, in the list's order, before the usual plan is asked instead. */
export const WALK_ROWS = 2000;

/** A condition that the walk tests on its records: a semi-join through a join table. */
function throughJoin(condition: Condition): boolean {
  return condition.related?.key !== undefined;
}

/**
 * Whether a list is read by a walk first: a page of a plain list (not per group, no search)
 * filtered through a join table, whose end is well within the walk.
 *
 * @example
 * ```ts
 * walkable({ ...query, where: [{ field: 'id', values: [], related: { collection: 'issue_labels', key: 'issueId', where } }] }); // true
 * ```
 */
export function walkable(query: ListQuery): boolean {
  return (
    !query.perGroup &&
    query.offset + query.limit <= WALK_ROWS / 20 &&
    query.where.some(throughJoin) &&
    !query.where.some((condition) => condition.search)
  );
}

/**
 * The walk's statement: the page taken, by the join table's conditions, from the first
 * {@link WALK_ROWS} records in the list's order that the other conditions (and `after`) keep, a
 * derived table named as the table (so that the page's columns, sets and conditions read it as they
 * read the table).
 *
 * @example
 * ```ts
 * const rows = await withTotal(plan, db, query, walkSelect(plan, db, query, columns)).execute();
 * ```
 */
export function walkSelect(plan: CollectionPlan, db: Db, query: ListQuery, columns: readonly string[]): Select {
  const { after, order } = query;
  // The walk reads the ids and the order's keys (from the order's index alone, where it ends with
  // the archive: ddl/table-keys.ts); the page's rows are read by id after.
  const keys = [...new Set(['id', ...order.map((key) => plan.column(key.field))])];
  let rows = plan.filtered(
    db.selectFrom(plan.table).select(keys),
    query.where.filter((condition) => !throughJoin(condition)),
  );
  if (after) rows = rows.where((eb) => plan.filters.after(eb, order, after));
  rows = plan.ordered(rows, order).limit(WALK_ROWS);
  const through = query.where.filter(throughJoin);
  const tested = db
    .selectFrom(rows.as(plan.table))
    .where((eb) =>
      eb.and(through.map((condition) => joinTest(plan, eb, condition, onJoinCopies(plan, query.where, condition)))),
    );
  const ids = plan.paged(tested.select('id'), { ...query, after: undefined });
  const page = db.selectFrom(plan.table).where('id', 'in', db.selectFrom(ids.as('resourcery_page')).select('id'));
  return plan.listSelect(db, { ...query, where: [], after: undefined, offset: 0 }, columns, page);
}

/**
 * The semi-join of a walk as a test of each record, in the walk's order, so that the page stops at
 * its last match; on PostgreSQL, one of two ways chosen by the statement itself (`CASE`), by how
 * many join rows match (`copied`: the query's conditions on the fields the join table copies, the
 * tenant's):
 * - at least {@link WALK_ROWS} (a label on 7% of the records): `(SELECT 1 FROM <join> WHERE <key>
 *   = <the record's field> AND … LIMIT 1) = 1`, a correlated scalar subquery, which no planner
 *   turns into a join, for the few hundred records before the page's last match (PostgreSQL,
 *   a label on 7% of 100,000 records: 3.9 → 1.0 ms against the hash of every join row of the label);
 * - fewer (a rare label, whose page is near the walk's end): `<field> IN (SELECT <key> FROM <join>
 *   WHERE …)` tested in the `CASE`, which the database hashes once and probes for each record
 *   (1.2 µs a record for the correlated test, 0.1 for the probe: 3.8 → 2.4 ms on PostgreSQL).
 * Before either, `EXISTS (SELECT 1 FROM <join> WHERE …)`, tested once for the statement: not one
 * record when no join row matches (a label no issue has). docs/performance.md, "The tracker at 1M
 * issues", sixth round.
 */
function joinTest(
  plan: CollectionPlan,
  eb: Eb,
  condition: Condition,
  copied: readonly Condition[],
): Expression<SqlBool> {
  const related = condition.related as NonNullable<Condition['related']>;
  const join = plan.filters.collection(related.collection);
  if (!join) return sql<SqlBool>`1 = 0`; // a collection the store never saw has no records
  const any = eb.exists(
    eb
      .selectFrom(join.table)
      .select(sql`1`.as('one'))
      .where((inner) => join.matches(inner, related.where)),
  );
  const tested = correlatedTest(plan, eb, condition, join);
  // SQLite's test of a record is a probe of an index (a fraction of PostgreSQL's), and a CASE
  // there makes the page sort every record of the walk: the correlated test alone.
  if (plan.dialect.name !== 'postgres') return eb.and([any, tested]);
  const matching = [...copied, ...related.where];
  const joinRows = eb
    .selectFrom(join.table)
    .select(join.column(related.key ?? 'id'))
    .where((inner) => join.matches(inner, matching));
  const few = eb(
    eb.selectFrom(joinRows.limit(WALK_ROWS).as('resourcery_few')).select((inner) => inner.fn.countAll().as('n')),
    '<',
    WALK_ROWS,
  );
  const field = sql.ref(`${plan.table}.${plan.column(condition.field)}`);
  return eb.and([
    any,
    eb
      .case()
      .when(few)
      .then(eb(field, 'in', joinRows))
      .else(tested)
      .end(),
  ]);
}

/** `(SELECT 1 FROM <join> WHERE <key> = <the record's field> AND … LIMIT 1) = 1`; see {@link joinTest}. */
function correlatedTest(plan: CollectionPlan, eb: Eb, condition: Condition, join: FilterSql): Expression<SqlBool> {
  const related = condition.related as NonNullable<Condition['related']>;
  const key = sql.ref(`resourcery_walk.${join.column(related.key ?? 'id')}`);
  // PostgreSQL: the related records' ids (the labels named) as an array computed once for the
  // statement, `= ANY(ARRAY(SELECT …))`, rather than an `IN` it would plan as a join on each test
  // (1.5 times faster).
  const once = plan.dialect.name === 'postgres';
  const relating = (entry: Condition) => once && entry.related !== undefined;
  const test = eb
    .selectFrom(`${join.table} as resourcery_walk`)
    .select(sql`1`.as('one'))
    .where(key, '=', sql.ref(`${plan.table}.${plan.column(condition.field)}`))
    .where((inner) =>
      inner.and([
        join.matches(
          inner,
          related.where.filter((entry) => !relating(entry)),
        ),
        ...related.where.filter(relating).map((entry) => {
          const ids = join.relatedSelect(inner, entry.related as NonNullable<Condition['related']>);
          return ids ? sql<SqlBool>`${sql.ref(join.column(entry.field))} = any(array(${ids}))` : sql<SqlBool>`1 = 0`;
        }),
      ]),
    )
    .limit(1);
  return eb(test, '=', 1);
}

/**
 * The rows of a list's page and its count, in one statement (compiled once per shape): by a walk
 * first when the list is {@link walkable}; when the walk's rows are not the page, by a walk on from
 * its last match, then by the usual statement (without its count when the walk's rows carried it):
 * at most three statements.
 *
 * @example
 * ```ts
 * const { rows, counted } = await pageRows(plan, db, query, plan.listColumns(query).columns);
 * ```
 */
export async function pageRows(
  plan: CollectionPlan,
  db: Db,
  query: ListQuery,
  columns: readonly string[],
): Promise<{ rows: Record<string, unknown>[]; counted: Omit<ListResult, 'records'> }> {
  const read = async (list: ListQuery, walk: boolean) => {
    const shape = listShape(list, columns);
    const key = walk && shape.key !== undefined ? `walk:${shape.key}` : shape.key;
    const statement = plan.shapes.compiled(key, shape.values, (values) => {
      const filled = listWithValues(list, values);
      const page = walk
        ? walkSelect(plan, db, filled, columns)
        : matchesOnce(plan, filled)
          ? matchedPage(plan, db, filled, columns)
          : plan.listSelect(db, filled, columns);
      return withTotal(plan, db, filled, page);
    });
    return (await execute<Record<string, unknown>>(db, statement)).rows;
  };
  if (walkable(query)) {
    let rows = await read(query, true);
    if (rows.length > 0) {
      const counted = await totalOf(plan, db, query, rows);
      if (walkedPage(query, rows.length, counted)) return { rows, counted };
      // Short of a page: the walk goes on once from its last match, for the rest of the page
      // (a label on 1.5% of the records has 21 to 43 in the first 2,000), before the usual plan.
      const after = positionOf(plan, query, rows[rows.length - 1] as Record<string, unknown>);
      if (after) {
        const rest = { ...query, after, offset: 0, limit: query.limit - rows.length, count: false };
        rows = rows.concat(await read(rest, true));
        if (walkedPage(query, rows.length, counted)) return { rows, counted };
      }
      return { rows: await read({ ...query, count: false }, false), counted };
    }
  }
  const rows = await read(query, false);
  return { rows, counted: await totalOf(plan, db, query, rows) };
}

/** The position of a row in the list's order (`after`), when the row holds every key of it. */
function positionOf(plan: CollectionPlan, query: ListQuery, row: Record<string, unknown>): Scalar[] | undefined {
  if (!query.order.every((key) => key.field in row)) return undefined;
  const record = plan.codec.toRecord(row);
  return query.order.map((key) => (record[key.field] ?? null) as Scalar);
}

/**
 * Whether a walk's rows are the page: a full page (its records are the first matches of the
 * order), or, without `after`, the last page of an exact count (every match was within the walk).
 * Else the usual statement must read it.
 *
 * @example
 * ```ts
 * walkedPage(query, rows.length, { total: 3 }); // with 3 rows, offset 0 and an exact count: true
 * ```
 */
function walkedPage(query: ListQuery, found: number, counted: Omit<ListResult, 'records'>): boolean {
  if (found >= query.limit) return true;
  return (
    found > 0 && !query.after && !counted.estimated && query.count !== false && counted.total === query.offset + found
  );
}
