import { matcher } from '../store/memory-filter.js';
import type { Collection, Condition, StoredRecord } from '../store/store.js';

/** Whether a record meets conditions: at once, or after the look-ups its relation conditions need. */
export type Holds = (record: StoredRecord) => boolean | Promise<boolean>;

/**
 * Compiles conditions into a test of one record held in memory (a change of the change log):
 * every condition on the record's own values is tested in memory (`matcher`); a relation
 * condition (`related`: a relation filter, a read rule through a belongs-to) asks the related
 * collection, found by name, whether a record it holds matches (one query, only when the
 * record's own values passed).
 *
 * @example
 * ```ts
 * const holds = compileHolds([{ field: 'orgId', values: [1] }], new Set(), lookup);
 * holds({ id: 5, orgId: 1 }); // true
 * ```
 */
export function compileHolds(
  where: readonly Condition[],
  decimals: ReadonlySet<string>,
  lookup: (name: string) => Collection | undefined,
): Holds {
  const own = matcher(
    where.filter((condition) => !condition.related),
    decimals,
  );
  const related = where.filter((condition) => condition.related);
  if (related.length === 0) return own;
  return (record) => (own(record) ? relatedHold(record, related, lookup) : false);
}

async function relatedHold(
  record: StoredRecord,
  conditions: readonly Condition[],
  lookup: (name: string) => Collection | undefined,
): Promise<boolean> {
  for (const { field, related } of conditions) {
    if (!related) continue;
    const value = record[field] ?? null;
    const collection = lookup(related.collection);
    if (value === null || typeof value === 'object' || !collection) return false;
    const found = await collection.list({
      where: [{ field: related.key ?? 'id', values: [value] }, ...related.where],
      order: [],
      limit: 1,
      offset: 0,
      count: false,
    });
    if (found.records.length === 0) return false;
  }
  return true;
}
