import type { AttributeSchema, Scalar } from '../schema/types.js';
import { scaledOf, sumValue } from './aggregate-values.js';
import { compareDecimalScalars, compareScalars } from './compare.js';
import type { MemoryTable } from './memory-table.js';
import type { AggregateQuery, AggregateRow, StoredRecord } from './store.js';

/** The running aggregates of one group. */
interface Bucket {
  readonly group: Scalar[];
  count: number;
  readonly sums: (bigint | null)[];
  readonly mins: Scalar[];
  readonly maxes: Scalar[];
}

/**
 * The groups of a memory collection's records matching the query, as {@link Collection.aggregate}
 * answers them: sums exact in bigints, min and max by the store's order (decimals numerically,
 * strings by code point), groups in ascending order of their values with `null` first.
 */
export function aggregateRecords(table: MemoryTable, query: AggregateQuery): AggregateRow[] {
  const attributes = new Map(table.schema.attributes.map((attribute) => [attribute.name, attribute]));
  const attribute = (name: string) => attributes.get(name) as AttributeSchema;
  const compareOf = (name: string) => (table.decimals.has(name) ? compareDecimalScalars : compareScalars);
  const scales = query.sum.map((name) => attribute(name).scale ?? 0);
  const minCompare = query.min.map(compareOf);
  const maxCompare = query.max.map(compareOf);
  const { narrowed, match } = table.prepare(query.where);
  const buckets = new Map<string, Bucket>();
  const bucketOf = (record: StoredRecord): Bucket => {
    const group = query.group.map((name) => (record[name] ?? null) as Scalar);
    // A key that tells `null` from the text "null" and 1 from "1".
    const key = JSON.stringify(group);
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = {
        group,
        count: 0,
        sums: query.sum.map(() => null),
        mins: query.min.map(() => null),
        maxes: query.max.map(() => null),
      };
      buckets.set(key, bucket);
    }
    return bucket;
  };
  if (query.group.length === 0) bucketOf({ id: 0 });
  for (const record of narrowed?.records ?? table.records.values()) {
    if (!match(record)) continue;
    const bucket = bucketOf(record);
    bucket.count++;
    query.sum.forEach((name, i) => {
      const value = record[name] ?? null;
      if (value === null) return;
      bucket.sums[i] = (bucket.sums[i] ?? 0n) + scaledOf(value as string | number, scales[i] as number);
    });
    query.min.forEach((name, i) => {
      const value = (record[name] ?? null) as Scalar;
      const least = bucket.mins[i] ?? null;
      if (value !== null && (least === null || (minCompare[i] as typeof compareScalars)(value, least) < 0)) {
        bucket.mins[i] = value;
      }
    });
    query.max.forEach((name, i) => {
      const value = (record[name] ?? null) as Scalar;
      const most = bucket.maxes[i] ?? null;
      if (value !== null && (most === null || (maxCompare[i] as typeof compareScalars)(value, most) > 0)) {
        bucket.maxes[i] = value;
      }
    });
  }
  const groupCompare = query.group.map(compareOf);
  const sorted = [...buckets.values()].sort((a, b) => {
    for (let i = 0; i < groupCompare.length; i++) {
      const result = (groupCompare[i] as typeof compareScalars)(a.group[i] ?? null, b.group[i] ?? null);
      if (result !== 0) return result;
    }
    return 0;
  });
  return sorted.slice(0, query.limit).map((bucket) => ({
    group: bucket.group,
    count: bucket.count,
    sum: bucket.sums.map((sum, i) => (sum === null ? null : sumValue(sum, attribute(query.sum[i] as string)))),
    min: bucket.mins,
    max: bucket.maxes,
  }));
}
