import type { Scalar } from '../schema/types.js';
import { compareScalars } from './compare.js';
import type { Condition, Order, StoredRecord } from './store.js';

// The query building blocks of the memory store, compiled once per request: a matcher for the
// conditions, a comparator for the order, and a bounded selection of the first records.

export type Matcher = (record: StoredRecord) => boolean;
export type Comparator = (a: StoredRecord, b: StoredRecord) => number;

export const matchAll: Matcher = () => true;

/** One test per condition, built once per query: `===` for one value, a `Set` for several. */
export function matcher(where: readonly Condition[]): Matcher {
  if (where.length === 0) return matchAll;
  const tests = where.map(({ field, values }): Matcher => {
    if (values.length === 1) {
      const value = values[0];
      return (record) => (record[field] ?? null) === value;
    }
    const set = new Set(values);
    return (record) => set.has(record[field] ?? null);
  });
  if (tests.length === 1) return tests[0] as Matcher;
  return (record) => {
    for (const test of tests) if (!test(record)) return false;
    return true;
  };
}

export function comparator(order: readonly Order[]): Comparator {
  const keys = order.map(({ field, direction }) => ({ field, sign: direction === 'asc' ? 1 : -1 }));
  return (a, b) => {
    for (const { field, sign } of keys) {
      const result = compareScalars(a[field] ?? null, b[field] ?? null);
      if (result !== 0) return sign * result;
    }
    return 0;
  };
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

/** A hash index of one attribute: value → the records holding it. */
export type ValueIndex = Map<Scalar, Set<StoredRecord>>;

/**
 * The records that can match `where`, from the most selective condition on `id` or on an
 * indexed attribute; `undefined` when no condition narrows the collection.
 */
export function candidates(
  records: ReadonlyMap<number, StoredRecord>,
  indexes: ReadonlyMap<string, ValueIndex>,
  where: readonly Condition[],
): { records: StoredRecord[]; by: Condition } | undefined {
  let best: { field: string; values: readonly Scalar[]; size: number; by: Condition } | undefined;
  for (const condition of where) {
    const { field, values } = condition;
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
  const seen = new Set<number>();
  if (best.field === 'id') {
    for (const value of best.values) {
      const record = typeof value === 'number' && !seen.has(value) ? records.get(value) : undefined;
      if (record) {
        seen.add(record.id);
        found.push(record);
      }
    }
    return { records: found, by: best.by };
  }
  const index = indexes.get(best.field) as Map<Scalar, Set<StoredRecord>>;
  for (const value of new Set(best.values)) {
    for (const record of index.get(value) ?? []) found.push(record);
  }
  return { records: found, by: best.by };
}

export function addToIndex(index: ValueIndex, value: Scalar, record: StoredRecord): void {
  const records = index.get(value);
  if (records) records.add(record);
  else index.set(value, new Set([record]));
}

export function dropFromIndex(index: ValueIndex, value: Scalar, record: StoredRecord): void {
  const records = index.get(value);
  if (!records) return;
  records.delete(record);
  if (records.size === 0) index.delete(value);
}
