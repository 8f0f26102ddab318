import type { ListQuery, ListResult, Scalar } from '@resourcery/core/store';
import { execute } from '../execute/execute.js';
import { listShape, listWithValues } from '../execute/shapes.js';
import type { CollectionPlan, Db, Select } from '../store/collection-plan.js';
import { onJoinCopies, throughJoin } from './join-count.js';
import { matchedPage, matchesOnce, totalOf, withTotal } from './list-total.js';
import { joinTest, WALK_ROWS, walkTallies } from './walk-test.js';

// A page filtered through a join table (`filter[labels.name]=bug`) read by walking the list's
// order: the first records of the order that the other conditions keep (the tenant, the
// archive...), read from the order's index, each tested for the semi-join until the page is full.
// A label on some percent of the records gives a page of 25 after a few hundred of them, where
// the usual plan (every record of the label, then a sort) reads them all. The walk is bounded:
// when its records hold too few matches, it goes on once from its last match, then the usual
// statement is asked (see {@link walkedPage}).

export { WALK_ROWS };

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
 * The walk's statement, with the page's total when the query counts: the page taken, by the join
 * table's conditions, from the first {@link WALK_ROWS} records in the list's order that the other
 * conditions (and `after`) keep, a derived table named as the table (so that the page's columns,
 * sets and conditions read it as they read the table); on PostgreSQL, each condition's tally of
 * join rows first, as a common table expression (query/walk-test.ts).
 *
 * @example
 * ```ts
 * const rows = await walkSelect(plan, db, query, columns).execute();
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
  const tallies = walkTallies(plan, db, query, through);
  const tested = db
    .selectFrom(rows.as(plan.table))
    .where((eb) =>
      eb.and(
        through.map((condition, i) =>
          joinTest(plan, eb, condition, onJoinCopies(plan, query.where, condition), tallies[i]),
        ),
      ),
    );
  const ids = plan.paged(tested.select('id'), { ...query, after: undefined });
  let from: Pick<Db, 'selectFrom' | 'with'> = db;
  for (const tally of tallies)
    if (tally)
      from = from.with(
        (cte) => cte(tally.name).materialized(),
        () => tally.select,
      );
  const page = from.selectFrom(plan.table).where('id', 'in', db.selectFrom(ids.as('resourcery_page')).select('id'));
  const listed = plan.listSelect(db, { ...query, where: [], after: undefined, offset: 0 }, columns, page);
  return withTotal(plan, db, query, listed, tallies.find((tally) => tally?.total)?.name);
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
      if (walk) return walkSelect(plan, db, filled, columns);
      const page = matchesOnce(plan, filled)
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
