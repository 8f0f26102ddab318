import type { Scalar, StoredValue } from '../schema/types.js';
import { compareDecimalScalars, compareScalars } from './compare.js';
import { matchesSearch } from './search-words.js';
import type { Condition, Order, StoredRecord } from './store.js';

// The memory store's conditions, compiled once per request into one test per condition:
// `IN` (plain equality for one value), the operators of CONTRACT part 3, relation filters
// (resolved to `IN` the related ids first) and the keyset position of `after`.

export type Matcher = (record: StoredRecord) => boolean;
export type Comparator = (a: StoredRecord, b: StoredRecord) => number;

export const matchAll: Matcher = () => true;

const NO_DECIMALS: ReadonlySet<string> = new Set();

/** A comparison's sign for a non-null value against the operand, or `undefined` for no order. */
function ordered(value: StoredValue, operand: Scalar, decimal: boolean): number | undefined {
  if (value === null || operand === null || typeof value === 'object') return undefined;
  return decimal ? compareDecimalScalars(value, operand) : compareScalars(value, operand);
}

/** The test of one condition; `decimals` names the decimal attributes (compared numerically). */
function test(condition: Condition, decimals: ReadonlySet<string>): Matcher {
  const { field, values, op, search } = condition;
  if (search) {
    const { fields, words } = search;
    return (record) =>
      matchesSearch(
        fields.map((name) => record[name] as string | null | undefined),
        words,
      );
  }
  if (op === undefined) {
    if (values.length === 1) {
      const value = values[0];
      return (record) => (record[field] ?? null) === value;
    }
    const set = new Set<StoredValue>(values);
    return (record) => set.has(record[field] ?? null);
  }
  const operand = values[0] ?? null;
  const decimal = decimals.has(field);
  // A comparison never matches null (as in SQL); `null` is the operator that finds it.
  switch (op) {
    case 'null':
      return operand ? (record) => (record[field] ?? null) === null : (record) => (record[field] ?? null) !== null;
    case 'ne':
      return (record) => {
        const value = record[field] ?? null;
        return value !== null && value !== operand;
      };
    case 'prefix':
      return (record) => {
        const value = record[field];
        return typeof value === 'string' && value.startsWith(String(operand));
      };
    case 'contains':
      return (record) => {
        const value = record[field];
        return typeof value === 'string' && value.includes(String(operand));
      };
    case 'gt':
      return (record) => (ordered(record[field] ?? null, operand, decimal) ?? 0) > 0;
    case 'gte':
      return (record) => (ordered(record[field] ?? null, operand, decimal) ?? -1) >= 0;
    case 'lt':
      return (record) => (ordered(record[field] ?? null, operand, decimal) ?? 0) < 0;
    case 'lte':
      return (record) => (ordered(record[field] ?? null, operand, decimal) ?? 1) <= 0;
  }
}

/**
 * One test per condition, built once per query, ANDed. Relation filters must have been
 * resolved first ({@link resolveRelated}).
 */
export function matcher(where: readonly Condition[], decimals: ReadonlySet<string> = NO_DECIMALS): Matcher {
  if (where.length === 0) return matchAll;
  if (where.length === 1) return test(where[0] as Condition, decimals);
  const tests = where.map((condition) => test(condition, decimals));
  return (record) => {
    for (const check of tests) if (!check(record)) return false;
    return true;
  };
}

/**
 * `where` with every relation filter replaced by `field IN (ids)`: the ids (or the values of
 * its `key`) of the records of the related collection that match the relation's conditions
 * (`idsOf` answers them). Answers
 * `where` itself when it has none, so the usual query allocates nothing.
 */
export function resolveRelated(
  where: readonly Condition[],
  idsOf: (collection: string, where: readonly Condition[], key?: string) => Scalar[],
): readonly Condition[] {
  if (!where.some((condition) => condition.related)) return where;
  return where.map((condition) => {
    const { related } = condition;
    return related
      ? { field: condition.field, values: idsOf(related.collection, related.where, related.key) }
      : condition;
  });
}

/**
 * The keyset test of `after`: a record passes when it comes strictly after the position (one
 * value per key of `order`) in that order, nulls first ascending and last descending.
 */
export function afterPosition(order: readonly Order[], after: readonly Scalar[], compare: Comparator): Matcher {
  const position = {} as StoredRecord;
  for (const [index, { field }] of order.entries()) position[field] = after[index] ?? null;
  return (record) => compare(record, position) > 0;
}
