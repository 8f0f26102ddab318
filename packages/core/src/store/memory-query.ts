import type { Id, Scalar, StoredValue } from '../schema/types.js';
import { compareDecimalScalars, compareScalars } from './compare.js';
import type { Comparator, Matcher } from './memory-filter.js';
import type { Condition, ListQuery, Order, StoredRecord } from './store.js';

// The query building blocks of the memory store, compiled once per request: a comparator for
// the order, the candidates an index narrows a query to, and a bounded selection of the first
// records.

/** Compares by the keys of `order`: `decimals` (the decimal attributes) numerically, the rest as {@link compareScalars}. */
export function comparator(order: readonly Order[], decimals: ReadonlySet<string>): Comparator {
  if (decimals.size > 0 && order.some(({ field }) => decimals.has(field))) {
    const keys = order.map(({ field, direction }) => ({
      field,
      sign: direction === 'asc' ? 1 : -1,
      compare: decimals.has(field) ? compareDecimalScalars : compareScalars,
    }));
    return (a, b) => {
      for (const { field, sign, compare } of keys) {
        const result = compare((a[field] ?? null) as Scalar, (b[field] ?? null) as Scalar);
        if (result !== 0) return sign * result;
      }
      return 0;
    };
  }
  // No decimal key: one direct call per key, as fast as it gets.
  const keys = order.map(({ field, direction }) => ({ field, sign: direction === 'asc' ? 1 : -1 }));
  return (a, b) => {
    for (const { field, sign } of keys) {
      const result = compareScalars((a[field] ?? null) as Scalar, (b[field] ?? null) as Scalar);
      if (result !== 0) return sign * result;
    }
    return 0;
  };
}

/**
 * The records that `match`, in `compare` order, keeping only the first `perGroup.limit` of each
 * value of `perGroup.field` (`null` is one group, as in SQL's `PARTITION BY`). Sorts every match:
 * the cut depends on the order, so a bounded heap cannot do it.
 */
export function firstPerGroup(
  candidates: Iterable<StoredRecord>,
  match: Matcher,
  compare: Comparator,
  perGroup: NonNullable<ListQuery['perGroup']>,
): StoredRecord[] {
  const matches: StoredRecord[] = [];
  for (const record of candidates) if (match(record)) matches.push(record);
  matches.sort(compare);
  const { field, limit } = perGroup;
  const taken = new Map<unknown, number>();
  const kept: StoredRecord[] = [];
  for (const record of matches) {
    const value = record[field] ?? null;
    const count = taken.get(value) ?? 0;
    if (count >= limit) continue;
    taken.set(value, count + 1);
    kept.push(record);
  }
  return kept;
}

/**
 * The `k` first records in `compare` order among those `candidates` that `match`, sorted, and how
 * many matched. A bounded max-heap keeps the `k` best seen so far (its root is the worst of
 * them), so the cost is O(n log k) instead of sorting every match.
 */
export function topK(
  candidates: Iterable<StoredRecord>,
  match: Matcher,
  compare: Comparator,
  k: number,
): { best: StoredRecord[]; matched: number } {
  const heap: StoredRecord[] = [];
  let matched = 0;
  for (const record of candidates) {
    if (!match(record)) continue;
    matched++;
    if (k === 0) continue;
    if (heap.length < k) {
      // sift up
      let i = heap.length;
      heap.push(record);
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (compare(heap[parent] as StoredRecord, record) >= 0) break;
        heap[i] = heap[parent] as StoredRecord;
        i = parent;
      }
      heap[i] = record;
    } else if (compare(record, heap[0] as StoredRecord) < 0) {
      // replace the worst, sift down
      let i = 0;
      const size = heap.length;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= size) break;
        const right = left + 1;
        const larger =
          right < size && compare(heap[right] as StoredRecord, heap[left] as StoredRecord) > 0 ? right : left;
        if (compare(heap[larger] as StoredRecord, record) <= 0) break;
        heap[i] = heap[larger] as StoredRecord;
        i = larger;
      }
      heap[i] = record;
    }
  }
  return { best: heap.sort(compare), matched };
}

/** A hash index of one attribute (never a JSON one): value → the records holding it. */
export type ValueIndex = Map<StoredValue, Set<StoredRecord>>;

/**
 * The records that can match `where`, from the most selective `IN` condition (no operator) on
 * `id` or on an indexed attribute; `undefined` when no condition narrows the collection.
 */
export function candidates(
  records: ReadonlyMap<Id, StoredRecord>,
  indexes: ReadonlyMap<string, ValueIndex>,
  where: readonly Condition[],
): { records: StoredRecord[]; by: Condition } | undefined {
  let best: { field: string; values: readonly Scalar[]; size: number; by: Condition } | undefined;
  for (const condition of where) {
    const { field, values } = condition;
    if (condition.op !== undefined || condition.related || condition.search) continue;
    let size: number;
    if (field === 'id') size = values.length;
    else {
      const index = indexes.get(field);
      if (!index) continue;
      size = 0;
      for (const value of values) size += index.get(value)?.size ?? 0;
    }
    if (!best || size < best.size) best = { field, values, size, by: condition };
  }
  if (!best) return undefined;
  const found: StoredRecord[] = [];
  if (best.field === 'id') {
    const seen = new Set<Id>();
    for (const value of best.values) {
      const record = value !== null && typeof value !== 'boolean' && !seen.has(value) ? records.get(value) : undefined;
      if (record) {
        seen.add(record.id);
        found.push(record);
      }
    }
    return { records: found, by: best.by };
  }
  const index = indexes.get(best.field) as ValueIndex;
  for (const value of new Set(best.values)) {
    for (const record of index.get(value) ?? []) found.push(record);
  }
  return { records: found, by: best.by };
}

export function addToIndex(index: ValueIndex, value: StoredValue, record: StoredRecord): void {
  const records = index.get(value);
  if (records) records.add(record);
  else index.set(value, new Set([record]));
}

export function dropFromIndex(index: ValueIndex, value: StoredValue, record: StoredRecord): void {
  const records = index.get(value);
  if (!records) return;
  records.delete(record);
  if (records.size === 0) index.delete(value);
}
