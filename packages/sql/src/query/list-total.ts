import { ESTIMATE_ABOVE, type ListQuery, type ListResult } from '@resourcery/core/store';
import { sql } from 'kysely';
import type { CollectionPlan, Db, Select } from '../store/collection-plan.js';
import { joinCount, keptJoinAnswers } from './join-count.js';
import { keptAnswers, keptTotal } from './kept-total.js';

/** The column of a counted page that carries the total. */
const TOTAL = 'resourcery_total';

/**
 * The most matches a list counts exactly before it may answer the planner's estimate instead:
 * with `count: 'estimated'` on a dialect that estimates (PostgreSQL), not for a per-group list
 * (an `include`'s, whose groups bound it), nor for one whose total a kept count answers
 * (query/kept-total.ts). `undefined` when the count is exact whatever it is.
 */
export function estimateCap(plan: CollectionPlan, query: ListQuery): number | undefined {
  if (query.count !== 'estimated' || !plan.dialect.estimateRows || query.perGroup) return undefined;
  if (keptAnswers(plan, query) || keptJoinAnswers(plan, query)) return undefined;
  return query.estimateAbove ?? ESTIMATE_ABOVE;
}

/**
 * How many records the query matches: the kept count when it answers the query ({@link keptTotal}),
 * else `count(*)` over all of them (from a join table alone when {@link joinCount} can), or, when it may be estimated,
 * over at most one more than the cap (`SELECT count(*) FROM (SELECT 1 … LIMIT cap + 1)`), so
 * that a huge match costs no more than the cap's worth of rows.
 */
function totalSelect(plan: CollectionPlan, db: Db, query: ListQuery): Select {
  const cap = estimateCap(plan, query);
  if (cap === undefined) return keptTotal(plan, db, query) ?? joinCount(plan, db, query) ?? plan.countSelect(db, query);
  const matching = plan.filtered(db.selectFrom(plan.table).select(sql`1`.as('one')), query.where);
  return db.selectFrom(matching.limit(cap + 1).as('capped')).select((eb) => eb.fn.countAll().as('total'));
}

/**
 * The page's select with the total riding along when it is wanted, in the same round trip: a
 * scalar subquery, which the database runs once (not per row); read from `counted` when the page
 * has it already (the name of a common table expression whose `total` is the exact count).
 *
 * @example
 * ```ts
 * const statement = withTotal(plan, db, query, plan.listSelect(db, query)).compile();
 * ```
 */
export function withTotal(plan: CollectionPlan, db: Db, query: ListQuery, page: Select, counted?: string): Select {
  if (!query.count) return page;
  if (counted) return page.select(db.selectFrom(counted).select('total').as(TOTAL));
  if (countsInPage(plan, query)) return page.select(sql<number>`count(*) over ()`.as(TOTAL));
  if (matchesOnce(plan, query))
    return page.select(db.selectFrom(MATCHES).select(sql<number>`count(*)`.as('n')).as(TOTAL));
  return page.select(totalSelect(plan, db, query).as(TOTAL));
}

/** The materialized set of a search's matches that its page and its count read (PostgreSQL). */
const MATCHES = 'resourcery_matches';

/**
 * Whether a page and its exact count read the matches once, from a materialized common table
 * expression ({@link matchedPage}) rather than each its own statement: a search on PostgreSQL,
 * whose page and count would each build the words' bitmaps (docs/performance.md, "The tracker at
 * 1M issues", third round).
 *
 * @example
 * ```ts
 * matchesOnce(plan, { ...query, count: true, where: [{ field: 'id', values: [], search }] }); // true on PostgreSQL
 * ```
 */
export function matchesOnce(plan: CollectionPlan, query: ListQuery): boolean {
  const { dialect } = plan;
  return dialect.name === 'postgres' && query.count === true && !query.perGroup && query.where.some((c) => c.search);
}

/**
 * The page of {@link matchesOnce}: `WITH resourcery_matches AS MATERIALIZED (SELECT id, <the
 * order's fields> … WHERE …)`, the page's ids taken from it in the list's order (`after`, `LIMIT`,
 * `OFFSET`), then their rows; {@link withTotal} counts the same matches.
 *
 * @example
 * ```ts
 * const rows = await withTotal(plan, db, query, matchedPage(plan, db, query, columns)).execute();
 * ```
 */
export function matchedPage(plan: CollectionPlan, db: Db, query: ListQuery, columns: readonly string[]): Select {
  const keys = [...new Set(['id', ...query.order.map((key) => plan.column(key.field))])];
  const matches = plan.filtered(db.selectFrom(plan.table).select(keys), query.where);
  const ids = plan.paged(db.selectFrom(`${MATCHES} as ${plan.table}`).select('id'), query);
  const rows = db.selectFrom(plan.table).selectAll().where('id', 'in', ids);
  const from = db
    .with(
      (cte) => cte(MATCHES).materialized(),
      () => matches,
    )
    .selectFrom(rows.as(plan.table));
  return plan.listSelect(db, { ...query, where: [], offset: 0, after: undefined }, columns, from);
}

/**
 * Whether the page's own rows give the exact count (`count(*) over ()`, computed before its
 * `LIMIT`) rather than a scalar subquery of its own: for a search (`q=`), whose page reads every
 * match anyway (the words' index lookups, then the rows, sorted), so that a subquery would do
 * those lookups twice. Not when the page can stop early (an index in its order): there the
 * subquery counts from an index alone, and a window would read every matching row. SQLite only
 * (its FTS5 page reads every match): PostgreSQL may walk the primary key for a page of words in
 * most records, where a window doubled the time (docs/performance.md, "The tracker at 1M issues").
 */
function countsInPage(plan: CollectionPlan, query: ListQuery): boolean {
  return (
    plan.dialect.name === 'sqlite' &&
    query.count === true &&
    !query.perGroup &&
    query.where.some((condition) => condition.search)
  );
}

/**
 * The total of a list whose page {@link withTotal} read: from its first row (only a page past the
 * end needs a query of its own), exact; or, past the cap of an estimated count, the planner's
 * estimate of the same filtered select (every condition of `where`, the caller's scope
 * included), never less than the cap's worth of rows the database found, marked `estimated`;
 * exact when the database cannot estimate.
 *
 * @example
 * ```ts
 * const { total, estimated } = await totalOf(plan, db, query, rows);
 * ```
 */
export async function totalOf(
  plan: CollectionPlan,
  db: Db,
  query: ListQuery,
  rows: readonly Record<string, unknown>[],
): Promise<Omit<ListResult, 'records'>> {
  if (!query.count) return {};
  const first = rows[0];
  let total: number;
  if (first) total = Number(first[TOTAL]);
  else if (query.offset === 0 && !query.after) return { total: 0 };
  else total = Number((await totalSelect(plan, db, query).executeTakeFirstOrThrow()).total);
  const cap = estimateCap(plan, query);
  if (cap === undefined || total <= cap || !plan.dialect.estimateRows) return { total };
  const filtered = plan.filtered(db.selectFrom(plan.table).select('id'), query.where);
  const estimate = await plan.dialect.estimateRows(db, filtered.compile()).catch(() => undefined);
  // A database that cannot explain (a PostgreSQL-compatible one without EXPLAIN's JSON): exact.
  if (estimate === undefined)
    return { total: Number((await plan.countSelect(db, query).executeTakeFirstOrThrow()).total) };
  return { total: Math.max(estimate, cap + 1), estimated: true };
}
