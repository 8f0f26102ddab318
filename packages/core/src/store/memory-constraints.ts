import type { Id, StoredValue } from '../schema/types.js';
import type { NewChange } from './memory-changes.js';
import type { MemoryTable, Tables, Undo } from './memory-table.js';
import type { StoredRecord } from './store.js';
import { ConstraintViolation } from './store-errors.js';

// The memory store's constraints: allowed values, unique sets and foreign keys checked before a write (a
// refused write changes nothing), and destroys that follow the foreign keys pointing at the
// record (restrict, cascade, nullify), all decided before anything is changed.

/** The value `field` has after a write of `next` over `self` (`self` absent for a create). */
function after(field: string, next: Readonly<Record<string, unknown>>, self: StoredRecord | undefined): StoredValue {
  const value = next[field] as StoredValue | undefined;
  return value !== undefined ? value : ((self?.[field] ?? null) as StoredValue);
}

/**
 * Throws a `check` {@link ConstraintViolation} naming the field when the write gives an attribute
 * with `values` (`@IsIn`, `@IsEnum`) a value that is not one of them (`null` is nullability's
 * business), as the SQL stores' `CHECK (<column> IN (…))` does.
 */
export function checkValues(table: MemoryTable, next: Readonly<Record<string, unknown>>): void {
  for (const attribute of table.schema.attributes) {
    const value = next[attribute.name];
    if (!attribute.values || value === undefined || value === null) continue;
    if (!(attribute.values as readonly unknown[]).includes(value))
      throw new ConstraintViolation('check', attribute.name);
  }
}

/**
 * Throws a `unique` {@link ConstraintViolation} when the record after the write would hold the
 * same values as another record on every field of one of the schema's unique sets (a `null`
 * among them never collides). The violation names the LAST field of the set: for
 * `['authorId', 'title']` it is `title`, the field a client changes to fix it. An update is
 * checked only on the sets it changes. The candidates come from the hash index of the set's
 * most selective field, never from a scan.
 */
export function checkUnique(
  table: MemoryTable,
  next: Readonly<Record<string, unknown>>,
  self: StoredRecord | undefined,
): void {
  for (const set of table.schema.unique ?? []) {
    if (self && !set.some((field) => next[field] !== undefined && next[field] !== self[field])) continue;
    let fewest: ReadonlySet<StoredRecord> | undefined;
    for (const field of set) {
      const value = after(field, next, self);
      if (value === null) {
        fewest = undefined;
        break;
      }
      const holders = table.holding(field, value);
      if (!fewest || holders.size < fewest.size) fewest = holders;
      if (fewest.size === 0) break;
    }
    if (!fewest) continue;
    for (const other of fewest) {
      if (other !== self && set.every((field) => (other[field] ?? null) === after(field, next, self))) {
        throw new ConstraintViolation('unique', set[set.length - 1]);
      }
    }
  }
}

/**
 * Throws a `foreign_key` {@link ConstraintViolation} naming the field when a foreign key written
 * by `next` holds a value that is no id of the referenced collection of the same store (a
 * collection the store has not created yet is empty). `null` refers to nothing and is allowed; a
 * record may refer to itself (`id` is the id it has or gets).
 */
export function checkReferences(
  tables: Tables,
  table: MemoryTable,
  next: Readonly<Record<string, unknown>>,
  self: StoredRecord | undefined,
  id: Id,
): void {
  for (const ref of table.schema.references ?? []) {
    const value = next[ref.field];
    if (value === undefined || value === null || (self && value === self[ref.field])) continue;
    if (ref.collection === table.schema.name && value === id) continue;
    if (!tables.table(ref.collection)?.has(value as Id)) throw new ConstraintViolation('foreign_key', ref.field);
  }
}

/**
 * Destroys `record` of `table` and follows the foreign keys pointing at it: `cascade` destroys
 * the referring records (and, recursively, theirs), `nullify` sets the referring field to `null`,
 * `restrict` throws a `referenced` {@link ConstraintViolation} naming the referring collection
 * and field. Everything is decided first: a restrict anywhere in the tree throws before
 * anything changed. A record that is destroyed anyway (reached by a cascade) does not restrict
 * and is not nullified. Every change is pushed to `log` when inside a transaction.
 */
export function destroyWithReferences(tables: Tables, table: MemoryTable, record: StoredRecord, log?: Undo[]): void {
  // 1. Everything the cascades reach.
  const doomed = new Set<StoredRecord>([record]);
  const order: { table: MemoryTable; record: StoredRecord }[] = [{ table, record }];
  for (let i = 0; i < order.length; i++) {
    const { table: parent, record: gone } = order[i] as (typeof order)[number];
    for (const { table: child, ref } of tables.referrers(parent.schema.name)) {
      if (ref.onDelete !== 'cascade') continue;
      for (const referring of child.holding(ref.field, gone.id)) {
        if (doomed.has(referring)) continue;
        doomed.add(referring);
        order.push({ table: child, record: referring });
      }
    }
  }
  // 2. The records that stay but refer to a doomed one: restrict or nullify.
  const nullify: { table: MemoryTable; record: StoredRecord; field: string }[] = [];
  for (const { table: parent, record: gone } of order) {
    for (const { table: child, ref } of tables.referrers(parent.schema.name)) {
      if (ref.onDelete === 'cascade') continue;
      for (const referring of child.holding(ref.field, gone.id)) {
        if (doomed.has(referring)) continue;
        if (ref.onDelete === 'restrict') {
          throw new ConstraintViolation('referenced', undefined, undefined, {
            collection: child.schema.name,
            field: ref.field,
          });
        }
        nullify.push({ table: child, record: referring, field: ref.field });
      }
    }
  }
  // 3. The changes, which cannot fail any more (and those of live collections, logged).
  const owners = liveOwners(tables, order, doomed);
  for (const { table: child, record: referring, field } of nullify) {
    const before = referring[field] ?? null;
    const snapshot = child.schema.live ? child.snapshot(referring) : null;
    child.write(referring, field, null);
    log?.push(() => child.restore(referring, field, before));
    if (snapshot) {
      const after = child.snapshot(referring);
      tables.changed(
        { collection: child.schema.name, kind: 'updated', id: referring.id, before: snapshot, after },
        log,
      );
    }
  }
  for (const { table: owner, record: gone } of order) {
    if (owner.schema.live) tables.changed(destroyed(owner, gone), log);
    owner.remove(gone);
    log?.push(() => owner.insert(gone));
  }
  for (const { table, record, before } of owners) {
    const after = table.snapshot(record);
    tables.changed({ collection: table.schema.name, kind: 'updated', id: record.id, before, after }, log);
  }
}

/**
 * The records of live collections whose set of ids (`labelIds`) loses an id as join records are
 * destroyed, and that stay: each with what it held before.
 */
function liveOwners(
  tables: Tables,
  order: readonly { table: MemoryTable; record: StoredRecord }[],
  doomed: ReadonlySet<StoredRecord>,
) {
  const found = new Map<StoredRecord, { table: MemoryTable; record: StoredRecord; before: StoredRecord }>();
  for (const { table: join, record: row } of order) {
    for (const { table, set } of tables.setOwners(join.schema.name)) {
      if (!table.schema.live) continue;
      const record = table.records.get(row[set.key] as Id);
      if (!record || doomed.has(record) || found.has(record)) continue;
      found.set(record, { table, record, before: table.snapshot(record) });
    }
  }
  return [...found.values()];
}

/** The change of a record of a live collection destroyed (read before it goes). */
export function destroyed(table: MemoryTable, record: StoredRecord): NewChange {
  return {
    collection: table.schema.name,
    kind: 'destroyed',
    id: record.id,
    before: table.snapshot(record),
    after: null,
  };
}
