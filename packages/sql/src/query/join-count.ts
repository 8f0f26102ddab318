import type { Condition, IdSet, ListQuery } from '@resourcery/core/store';
import { sql } from 'kysely';
import type { CollectionPlan, Db, Select } from '../store/collection-plan.js';
import { keptJoinTenant, keptJoinTotal } from './kept-total.js';

// The count of a list filtered through one of its own join tables (`filter[labels.name]=bug`)
// whose other conditions are on fields the join table copies (the tenant, the archive:
// ddl/join-copies.ts), read from the join table alone: `count(distinct issueId)` (`count(*)` when
// one label at most matches) of the join rows of the tenant, not archived, whose label matches,
// a range of its `(labelId, orgId, archivedAt, issueId)` index, instead of one lookup of each join
// row's record (docs/performance.md, "The tracker at 1M issues", sixth round); or, for one label
// of a collection that keeps its count, a sum of the join table's kept count (query/kept-total.ts,
// tenth round).

/** Whether a condition goes through a join table (a semi-join on its key: `filter[labels.name]=`). */
export function throughJoin(condition: Condition): boolean {
  return condition.related?.key !== undefined;
}

/** The set of the collection whose join table `through` (a condition through a join table) reads, if any. */
function ownSet(plan: CollectionPlan, through: Condition): IdSet | undefined {
  const related = through.related;
  return plan.idSets.sets.find((one) => one.through === related?.collection && one.key === related?.key);
}

/** The query's one condition through a join table of the collection's own sets, with its set. */
function throughOwnSet(plan: CollectionPlan, where: readonly Condition[]): [Condition, IdSet] | undefined {
  const through = where.filter(throughJoin);
  const [condition] = through;
  if (through.length !== 1 || !condition?.related || condition.field !== 'id' || condition.op) return undefined;
  const set = ownSet(plan, condition);
  return set && [condition, set];
}

/**
 * The conditions of `where` besides `through` (a condition through a join table) that the join
 * table can test on its own rows: those on the fields it copies from its records (the tenant, the
 * archive), when it is a join table of the collection's own sets; none otherwise.
 *
 * @example
 * ```ts
 * onJoinCopies(plan, [tenant, unarchived, labelled], labelled); // [tenant, unarchived]
 * ```
 */
export function onJoinCopies(plan: CollectionPlan, where: readonly Condition[], through: Condition): Condition[] {
  const set = ownSet(plan, through);
  const copies = set ? plan.idSets.copies(set) : [];
  return where.filter(
    (condition) => condition !== through && !condition.related && !condition.search && copies.includes(condition.field),
  );
}

/**
 * The exact count of `query` from its join table alone, when its conditions are one through a
 * join table of the collection's sets and others on the fields that join table copies; else
 * `undefined` (the usual count).
 *
 * @example
 * ```ts
 * joinCount(plan, db, { ...query, where: [tenant, unarchived, { field: 'id', values: [], related: { collection: 'issue_labels', key: 'issueId', where } }] });
 * // select count(distinct "issueId") as "total" from "issue_labels" where "orgId" = $1 and "archivedAt" is null and "labelId" in (…)
 * ```
 */
export function joinCount(plan: CollectionPlan, db: Db, query: ListQuery): Select | undefined {
  const found = joinCounted(plan, query);
  if (!found) return undefined;
  const { join, set, copied, related, one, kept } = found;
  if (kept) return keptJoinTotal(db, join, kept, related);
  // A record has one join row per other record: when the filter names at most one other record
  // (by its id, or by a unique set), its join rows are its records, counted without a sort.
  const counted = one ? sql<number>`count(*)` : sql<number>`count(distinct ${sql.ref(set.key)})`;
  return db
    .selectFrom(join.table)
    .select(counted.as('total'))
    .where((eb) => join.matches(eb, [...copied, ...related]));
}

/**
 * Whether {@link joinCount} reads the join table's kept count (one other record, the tenant's
 * records not archived, a collection that keeps its count: query/kept-total.ts): then exactly,
 * whatever the list's `count` asks.
 *
 * @example
 * ```ts
 * keptJoinAnswers(plan, { ...query, where: [tenant, unarchived, labelled] }); // true on PostgreSQL
 * ```
 */
export function keptJoinAnswers(plan: CollectionPlan, query: ListQuery): boolean {
  return joinCounted(plan, query)?.kept !== undefined;
}

/**
 * What {@link joinCount} counts: the join table's filters, the set, the list's conditions on the
 * join rows' copies (`copied`) and the join rows' own (`related`), whether they name one other
 * record (`one`), and the tenant's conditions when the join table's kept count answers (`kept`).
 */
function joinCounted(plan: CollectionPlan, query: ListQuery) {
  if (query.perGroup) return undefined;
  const found = throughOwnSet(plan, query.where);
  if (!found) return undefined;
  const [through, set] = found;
  const copied = onJoinCopies(plan, query.where, through);
  const join = plan.filters.collection(set.through);
  if (!join || copied.length < query.where.length - 1 || plan.idSets.copies(set).length === 0) return undefined;
  const related = through.related?.where ?? [];
  const one = oneTarget(plan, related, set.value);
  const kept = one ? keptJoinTenant(plan, join, copied) : undefined;
  return { join, set, copied, related, one, kept };
}

/**
 * Whether the join rows' conditions (`where`) keep at most one value of `value` (the other
 * record's id): a relation filter on it whose conditions give one value to the id, or to every
 * attribute of a unique set of the other collection (`name = 'bug'` and `orgId = 7` of labels
 * unique by `(orgId, name)`).
 */
function oneTarget(plan: CollectionPlan, where: readonly Condition[], value: string): boolean {
  const [condition] = where;
  const related = condition?.related;
  if (where.length !== 1 || condition?.field !== value || !related || related.key !== undefined) return false;
  const target = plan.catalog.schema(related.collection);
  const pinned = new Set(
    related.where
      .filter((one) => !one.op && !one.related && !one.search && one.values.length === 1 && one.values[0] !== null)
      .map((one) => one.field),
  );
  return pinned.has('id') || (target?.unique ?? []).some((set) => set.every((field) => pinned.has(field)));
}
