import type { Id } from '../schema/types.js';
import { afterPosition, type Matcher } from './memory-filter.js';
import { comparator, firstPerGroup, topK } from './memory-query.js';
import type { MemoryTable } from './memory-table.js';
import type { ListQuery, StoredRecord } from './store.js';

/** Both tests. */
function both(first: Matcher, second: Matcher): Matcher {
  return (record) => first(record) && second(record);
}

/**
 * One page of a memory collection (the stored records themselves: the caller copies them).
 * Lists do not sort the collection per request: an index narrows `IN` filters to their
 * candidates, only the `offset + limit` first records of the order are kept (a bounded heap), and
 * id order walks the ids in order and stops as soon as the page is full.
 *
 * `total` counts the records matching `where`: with `perGroup`, those left after the per-group
 * cut, as the SQL stores count the rows of their window; with `after`, every match wherever the
 * page starts. An estimated count (`count: 'estimated'`) is exact.
 */
export function listPage(table: MemoryTable, query: ListQuery): { records: StoredRecord[]; total?: number } {
  const { order, offset, limit, perGroup, after } = query;
  // The memory store has no estimates: an estimated count is an exact one.
  const count = query.count !== false;
  const { narrowed, match, where } = table.prepare(query.where);
  const source = (): Iterable<StoredRecord> => narrowed?.records ?? table.records.values();
  const first = order[0];
  if (perGroup) {
    const compare = comparator(order, table.decimals);
    let kept = firstPerGroup(source(), match, compare, perGroup);
    const total = count ? kept.length : undefined;
    if (after) kept = kept.filter(afterPosition(order, after, compare));
    return { records: kept.slice(offset, offset + limit), total };
  }
  if (!narrowed && first?.field === 'id') {
    // Id order over the whole collection: walk the ids and stop once the page is full.
    const matchesAll = where.length === 0;
    if (!after) return table.walkIds(first.direction, match, offset, limit, count, matchesAll);
    const page = table.walkIds(first.direction, match, offset, limit, false, matchesAll, after[0] as Id);
    return { records: page.records, total: count ? countOf(source(), match, matchesAll, table) : undefined };
  }
  const compare = comparator(order, table.decimals);
  const test = after ? both(match, afterPosition(order, after, compare)) : match;
  const { best, matched } = topK(source(), test, compare, offset + limit);
  const total = !count ? undefined : after ? countOf(source(), match, false, table) : matched;
  return { records: best.slice(offset), total };
}

function countOf(records: Iterable<StoredRecord>, match: Matcher, matchesAll: boolean, table: MemoryTable): number {
  if (matchesAll) return table.records.size;
  let total = 0;
  for (const record of records) if (match(record)) total++;
  return total;
}
