import type { Id, IdSet, StoredValue } from '../schema/types.js';
import type { MemoryCollection } from './memory-collection.js';
import type { Tables, Undo } from './memory-table.js';
import type { StoredRecord } from './store.js';
import { ConstraintViolation } from './store-errors.js';

// The sets of ids a memory collection's records hold through join collections (`labelIds`):
// read from the join collection's index on its key, written as join records in the record's
// own undo log, so that the record and its links change together or not at all.

function ascending(a: Id, b: Id): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Adds each set of ids (those among `select`, when given) to a record callers get, ascending.
 *
 * @example
 * ```ts
 * addSets(tables, schema.sets ?? [], record); // record.labelIds = [1, 4]
 * ```
 */
export function addSets(
  tables: Tables,
  sets: readonly IdSet[],
  record: StoredRecord,
  select?: readonly string[],
): void {
  for (const { field, through, key, value } of sets) {
    if (select && !select.includes(field)) continue;
    const rows = tables.table(through)?.holding(key, record.id) ?? [];
    const ids = [...rows].map((row) => row[value] as Id);
    record[field] = ids.sort(ascending) as unknown as StoredValue;
  }
}

/**
 * The values of a write without its sets of ids, and the sets it gives.
 *
 * @example
 * ```ts
 * splitSets(sets, { title: 'Bug', labelIds: [1] }); // { own: { title: 'Bug' }, given: [[set, [1]]] }
 * ```
 */
export function splitSets(
  sets: readonly IdSet[],
  values: Readonly<Partial<StoredRecord>>,
): { own: Partial<StoredRecord>; given: [IdSet, readonly Id[]][] } {
  if (sets.length === 0) return { own: values, given: [] };
  const own = { ...values };
  const given: [IdSet, readonly Id[]][] = [];
  for (const set of sets) {
    const ids = own[set.field];
    delete own[set.field];
    if (ids !== undefined && ids !== null) given.push([set, ids as unknown as readonly Id[]]);
  }
  return { own, given };
}

/**
 * Replaces the join records of one set of the record `id` by those of `ids`, in `log`: an id
 * naming no record breaks the join's foreign key (a `foreign_key` violation naming the set).
 *
 * @example
 * ```ts
 * await replaceSet(tables, set, 3, [1, 2], log);
 * ```
 */
export async function replaceSet(tables: Tables, set: IdSet, id: Id, ids: readonly Id[], log: Undo[]): Promise<void> {
  const join = tables.table(set.through) as MemoryCollection | undefined;
  if (!join) throw new TypeError(`The store has no collection ${set.through}`);
  const wanted = new Set(ids);
  for (const row of [...join.holding(set.key, id)]) {
    if (wanted.has(row[set.value] as Id)) wanted.delete(row[set.value] as Id);
    else await join.destroy(row.id, [], log);
  }
  for (const other of wanted) {
    try {
      await join.create({ [set.key]: id, [set.value]: other }, log);
    } catch (error) {
      if (error instanceof ConstraintViolation && error.kind === 'foreign_key') {
        throw new ConstraintViolation('foreign_key', set.field, error);
      }
      throw error;
    }
  }
}
