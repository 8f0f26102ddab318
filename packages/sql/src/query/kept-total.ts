import type { Condition, ListQuery } from '@resourcery/core/store';
import { sql } from 'kysely';
import type { CollectionPlan, Db, Select } from '../store/collection-plan.js';
import type { FilterSql } from './filter-sql.js';
import { countsTable, type KeptCount, keptCount } from './kept-count.js';

// What a kept count answers (query/kept-count.ts): the total of a tenant's whole list, and of a
// list of the tenant's records filtered through a join table by one other record (a label).

/**
 * The tenant's conditions of a list (one, or none without a tenant) when its conditions are
 * exactly those of the tenant's whole list: the tenant's one value (if the collection has a
 * tenant) and the archive's `IS NULL` (if it archives), nothing else (no filter, no search, no
 * relation, no row rule), on a collection whose count is kept; `undefined` otherwise.
 */
function wholeList(plan: CollectionPlan, query: ListQuery): Condition[] | undefined {
  const { schema } = plan;
  const kept = schema.keepCount === true ? keptCount(schema, plan.dialect) : undefined;
  if (!kept || query.perGroup) return undefined;
  return liveOfOneTenant(kept, query.where);
}

/**
 * The tenant's conditions among `where` (one, or none without a tenant) when `where` is exactly
 * what a kept count counts: the tenant's one value (if it counts per tenant) and the archive's
 * `IS NULL` (if it counts what is not archived), nothing else; `undefined` otherwise.
 */
function liveOfOneTenant(kept: KeptCount, where: readonly Condition[]): Condition[] | undefined {
  const plain = (condition: Condition) => !condition.related && !condition.search && condition.values.length === 1;
  const tenant = (condition: Condition) =>
    plain(condition) && condition.field === kept.tenant && !condition.op && condition.values[0] !== null;
  const live = (condition: Condition) =>
    plain(condition) && condition.field === kept.archive && condition.op === 'null' && condition.values[0] === true;
  const wanted = [kept.tenant && tenant, kept.archive && live].filter((test) => typeof test === 'function');
  if (where.length !== wanted.length || wanted.some((test) => where.filter(test).length !== 1)) return undefined;
  return where.filter(tenant);
}

/**
 * Whether the kept count answers a list's total ({@link keptTotal}): then exactly, whatever the
 * list's `count` asks.
 *
 * @example
 * ```ts
 * keptAnswers(plan, { ...query, where: [{ field: 'orgId', values: [1] }, { field: 'archivedAt', values: [true], op: 'null' }] }); // true
 * ```
 */
export function keptAnswers(plan: CollectionPlan, query: ListQuery): boolean {
  return wholeList(plan, query) !== undefined;
}

/**
 * The kept count's select that answers a list's total when {@link keptAnswers}: the sum of the
 * tenant's rows of the counts table; `undefined` otherwise.
 *
 * @example
 * ```ts
 * keptTotal(plan, db, { ...query, where: [{ field: 'orgId', values: [1] }, { field: 'archivedAt', values: [true], op: 'null' }] });
 * // SELECT coalesce(sum("live"), 0) AS total FROM "issues__counts" WHERE "orgId" = $1
 * ```
 */
export function keptTotal(plan: CollectionPlan, db: Db, query: ListQuery): Select | undefined {
  const tenant = wholeList(plan, query);
  if (!tenant) return undefined;
  return plan
    .filtered(db.selectFrom(countsTable(plan.table)), tenant)
    .select(sql<string>`coalesce(sum(${sql.ref('live')}), 0)`.as('total'));
}

/**
 * The tenant's conditions of a list filtered through a join table by one other record
 * (`filter[labels.name]=bug`: one label, the organization's name being unique) when the join
 * table's kept count answers its count: `copied` (the list's other conditions, on the join rows'
 * copies) are exactly what it counts (the tenant's one value, not archived); `undefined`
 * otherwise. `join` is the join table's filters.
 *
 * @example
 * ```ts
 * keptJoinTenant(plan, join, [tenant, unarchived]); // [tenant] on PostgreSQL, when issues keep their count
 * ```
 */
export function keptJoinTenant(
  plan: CollectionPlan,
  join: FilterSql,
  copied: readonly Condition[],
): Condition[] | undefined {
  const kept = keptCount(join.schema, plan.dialect);
  return kept && liveOfOneTenant(kept, copied);
}

/**
 * The count of the records of a list filtered through a join table by one other record, from the
 * join table's kept count ({@link keptJoinTenant}): the sum of its rows for the tenant and the
 * other records the join rows' conditions (`related`) keep.
 *
 * @example
 * ```ts
 * keptJoinTotal(db, join, [tenant], [{ field: 'labelId', values: [], related }]);
 * // SELECT coalesce(sum("live"), 0) AS total FROM "issue_labels__counts" WHERE "orgId" = $1 AND "labelId" IN (SELECT "id" FROM "labels" WHERE …)
 * ```
 */
export function keptJoinTotal(
  db: Db,
  join: FilterSql,
  tenant: readonly Condition[],
  related: readonly Condition[],
): Select {
  return db
    .selectFrom(countsTable(join.table))
    .select(sql<string>`coalesce(sum(${sql.ref('live')}), 0)`.as('total'))
    .where((eb) => join.matches(eb, [...tenant, ...related]));
}
