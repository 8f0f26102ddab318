import type { Condition, ListQuery, ListResult } from '@resourcery/core/store';
import { execute } from '../execute/execute.js';
import { listShape, listWithValues } from '../execute/shapes.js';
import type { CollectionPlan, Db, Select } from '../store/collection-plan.js';
import { matchedPage, matchesOnce, totalOf, withTotal } from './list-total.js';

// A page filtered through a join table (`filter[labels.name]=bug`) read by walking the list's
// order: the first records of the order that the other conditions keep (the tenant, the
// archive...), read from the order's index, then the semi-join on those only. A label on some
// percent of the records gives a page of 25 after a few hundred of them, where the usual plan
// (every record of the label, then a sort) reads them all. The walk is bounded: when its records
// hold too few matches, the usual statement is asked (see {@link walkedPage}).

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
  let rows = plan.filtered(
    db.selectFrom(plan.table).select(plan.codec.columns),
    query.where.filter((condition) => !throughJoin(condition)),
  );
  if (after) rows = rows.where((eb) => plan.filters.after(eb, order, after));
  rows = plan.ordered(rows, order).limit(WALK_ROWS);
  const page = { ...query, where: query.where.filter(throughJoin), after: undefined };
  return plan.listSelect(db, page, columns, db.selectFrom(rows.as(plan.table)));
}

/**
 * The rows of a list's page and its count, in one statement (compiled once per shape): by a walk
 * first when the list is {@link walkable}, then, when the walk's rows are not the page, by the
 * usual statement (without its count when the walk's rows carried it).
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
    const rows = await read(query, true);
    if (rows.length > 0) {
      const counted = await totalOf(plan, db, query, rows);
      if (walkedPage(query, rows.length, counted)) return { rows, counted };
      return { rows: await read({ ...query, count: false }, false), counted };
    }
  }
  const rows = await read(query, false);
  return { rows, counted: await totalOf(plan, db, query, rows) };
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
