import type { Condition, ListQuery } from '@resourcery/core/store';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { CollectionPlan, Db, Select } from '../store/collection-plan.js';
import type { FilterSql } from './filter-sql.js';
import { joinCount, onJoinCopies } from './join-count.js';
import { estimateCap } from './list-total.js';

// How a walk (query/walk-page.ts) tests each of its records for a condition through a join table
// (`filter[labels.name]=bug`), and, on PostgreSQL, the tally of the join rows that chooses the test.

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time, from the declaration
type Eb = ExpressionBuilder<any, any>;

/** The most records a walk reads, in the list's order, before the usual plan is asked instead. */
export const WALK_ROWS = 2000;

/**
 * How many join rows match a condition through a join table, read once for the walk's statement
 * (PostgreSQL): a materialized common table expression `name` with one column, `total`. It is the
 * page's exact count when that count is read from the join table ({@link joinCount}: `total`
 * true), so that the statement reads the label's join rows once where it read them twice; else
 * the join rows counted up to {@link WALK_ROWS}.
 */
export interface WalkTally {
  readonly name: string;
  readonly select: Select;
  /** Whether `total` is the page's exact count (the statement's total reads it). */
  readonly total: boolean;
}

/**
 * The tallies of a walk's conditions through join tables (`through`), one each; none but on
 * PostgreSQL (elsewhere each record is tested by a probe of an index, whatever the count).
 *
 * @example
 * ```ts
 * walkTallies(plan, db, query, [labelled]); // [{ name: 'resourcery_tally_0', total: true, select }] on PostgreSQL
 * ```
 */
export function walkTallies(
  plan: CollectionPlan,
  db: Db,
  query: ListQuery,
  through: readonly Condition[],
): (WalkTally | undefined)[] {
  if (plan.dialect.name !== 'postgres') return [];
  const counted = query.count && estimateCap(plan, query) === undefined ? joinCount(plan, db, query) : undefined;
  return through.map((condition, i) => {
    const name = `resourcery_tally_${i}`;
    if (!plan.filters.collection(condition.related?.collection ?? '')) return undefined; // never seen: no records
    // A count from the join table implies this is the query's one condition through a join table.
    if (counted) return { name, select: counted, total: true };
    const rows = joinRows(plan, db, condition, onJoinCopies(plan, query.where, condition));
    const select = db
      .selectFrom(rows.limit(WALK_ROWS).as('resourcery_few'))
      .select((eb) => eb.fn.countAll().as('total'));
    return { name, select, total: false };
  });
}

/**
 * The keys of the join rows that match a condition through a join table (`copied`: the query's
 * conditions on the fields the join table copies, the tenant's and the archive's).
 */
function joinRows(
  plan: CollectionPlan,
  db: { selectFrom(table: string): Select },
  condition: Condition,
  copied: readonly Condition[],
): Select {
  const related = condition.related as NonNullable<Condition['related']>;
  const join = plan.filters.collection(related.collection) as FilterSql;
  return db
    .selectFrom(join.table)
    .select(join.column(related.key ?? 'id'))
    .where((inner) => join.matches(inner, [...copied, ...related.where]));
}

/**
 * The semi-join of a walk as a test of each record, in the walk's order, so that the page stops at
 * its last match; on PostgreSQL, one of two ways chosen by the statement itself (`CASE`), by its
 * {@link WalkTally} (`tally`, the join rows that match the condition and the query's conditions on
 * the fields the join table copies, the tenant's):
 * - at least {@link WALK_ROWS} (a label on 7% of the records): `(SELECT 1 FROM <join> WHERE <key>
 *   = <the record's field> AND … LIMIT 1) = 1`, a correlated scalar subquery, which no planner
 *   turns into a join, for the few hundred records before the page's last match (PostgreSQL,
 *   a label on 7% of 100,000 records: 3.9 → 1.0 ms against the hash of every join row of the label);
 * - fewer (a rare label, whose page is near the walk's end): `<field> IN (SELECT <key> FROM <join>
 *   WHERE …)` tested in the `CASE`, which the database hashes once and probes for each record
 *   (1.2 µs a record for the correlated test, 0.1 for the probe: 3.8 → 2.4 ms on PostgreSQL).
 * Before either, a test done once for the statement: not one record when no join row matches (a
 * label no issue has): the tally above 0 (PostgreSQL: a record's join rows carry its copied
 * fields, so the rows of the walk's matches are among those counted), `EXISTS (SELECT 1 FROM
 * <join> WHERE …)` elsewhere. docs/performance.md, "The tracker at 1M issues", sixth round.
 *
 * @example
 * ```ts
 * rows.where((eb) => joinTest(plan, eb, labelled, onJoinCopies(plan, query.where, labelled), tally));
 * ```
 */
export function joinTest(
  plan: CollectionPlan,
  eb: Eb,
  condition: Condition,
  copied: readonly Condition[],
  tally?: WalkTally,
): Expression<SqlBool> {
  const related = condition.related as NonNullable<Condition['related']>;
  const join = plan.filters.collection(related.collection);
  if (!join) return sql<SqlBool>`1 = 0`; // a collection the store never saw has no records
  const tested = correlatedTest(plan, eb, condition, join);
  // SQLite's test of a record is a probe of an index (a fraction of PostgreSQL's), and a CASE
  // there makes the page sort every record of the walk: the correlated test alone.
  if (!tally) {
    const any = eb.exists(
      eb
        .selectFrom(join.table)
        .select(sql`1`.as('one'))
        .where((inner) => join.matches(inner, related.where)),
    );
    return eb.and([any, tested]);
  }
  const counted = eb.selectFrom(tally.name).select('total');
  const field = sql.ref(`${plan.table}.${plan.column(condition.field)}`);
  return eb.and([
    eb(counted, '>', 0),
    eb
      .case()
      .when(eb(counted, '<', WALK_ROWS))
      .then(eb(field, 'in', joinRows(plan, eb, condition, copied)))
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
