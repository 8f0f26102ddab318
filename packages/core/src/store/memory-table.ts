import type { CollectionSchema, ForeignKey, Id, IdSet, Scalar, StoredValue } from '../schema/types.js';
import type { NewChange } from './memory-changes.js';
import { type Matcher, matcher, resolveRelated } from './memory-filter.js';
import { addToIndex, candidates, dropFromIndex, type ValueIndex } from './memory-query.js';
import type { Condition, StoredRecord } from './store.js';

// The storage of one memory collection (records by id, the ids in order, the hash indexes) and
// what the collections of one memory store share: the store's map of collections, the foreign
// keys pointing at each collection, and the undo log of transactions.

/** Reverts one write; a transaction's log runs them newest first when its work rejects. */
export type Undo = () => void;

/** A foreign key of `table` pointing at another collection. */
export interface Referrer {
  readonly table: MemoryTable;
  readonly ref: ForeignKey;
}

/** The store the collections of one `memoryStore()` belong to. */
export interface Tables {
  /** The collection with this name, `undefined` when the store has not created it (it is empty). */
  table(name: string): MemoryTable | undefined;
  /** The foreign keys of every collection of the store that point at the collection `name`. */
  referrers(name: string): readonly Referrer[];
  /** Runs `work` with a fresh undo log: merged into `parent` when it resolves, undone when it rejects. */
  run<T>(work: (log: Undo[]) => Promise<T>, parent?: Undo[]): Promise<T>;
  /**
   * Logs a change of a record of a live collection: at once outside a transaction, else when the
   * transaction of `log` commits (and never when it is undone).
   */
  changed(change: NewChange, log?: Undo[]): void;
  /** The collections holding a set of ids through the join collection `through` (`labelIds` through `issue_labels`). */
  setOwners(through: string): readonly { readonly table: MemoryTable; readonly set: IdSet }[];
}

const NONE: ReadonlySet<StoredRecord> = new Set();

/** A shallow copy: what callers get of records without JSON attributes. */
function plainCopy(record: StoredRecord): StoredRecord {
  return { ...record };
}

/** How a collection copies its records for callers: deep for the JSON attributes `jsons`, so that nobody changes the stored ones. */
export function recordCopier(jsons: readonly string[]): (record: StoredRecord) => StoredRecord {
  if (jsons.length === 0) return plainCopy;
  return (record) => {
    const copied = { ...record };
    for (const name of jsons) {
      const value = copied[name];
      if (value != null) copied[name] = structuredClone(value);
    }
    return copied;
  };
}

/** Whether id `a` comes before id `b`: numbers numerically, uuids (lowercase ASCII) as text. */
function precedes(a: Id, b: Id): boolean {
  return (a as number) < (b as number);
}

/**
 * One collection's records. Every attribute that is filtered or sorted on, belongs to a unique
 * set or is a foreign key has a hash index (value → records): equality filters, uniqueness checks
 * and "who refers to this record" never scan the collection.
 */
export class MemoryTable {
  readonly schema: CollectionSchema;
  /** The records by id; change them only through `insert`, `remove`, `write` and `restore`. */
  readonly records = new Map<Id, StoredRecord>();
  /** Every live id in ascending order, plus holes (ids deleted since the last compaction). */
  private ids: Id[] = [];
  private holes = 0;
  /** `field → value → records` for every indexed attribute. */
  readonly indexes = new Map<string, ValueIndex>();
  /** The decimal attributes, which compare numerically. */
  readonly decimals: ReadonlySet<string>;
  /** The ids (or the values of `key`) of the records of another collection of the store that match conditions. */
  readonly idsOf: (collection: string, where: readonly Condition[], key?: string) => Scalar[];

  constructor(
    schema: CollectionSchema,
    protected readonly tables: Tables,
  ) {
    this.schema = schema;
    this.decimals = new Set(schema.attributes.filter((a) => a.type === 'decimal').map((a) => a.name));
    this.idsOf = (collection, where, key) => tables.table(collection)?.idsMatching(where, key) ?? [];
    const json = new Set(schema.attributes.filter((a) => a.type === 'json').map((a) => a.name));
    const fields = [
      ...schema.indexed,
      ...(schema.unique ?? []).flat(),
      ...(schema.references ?? []).map((ref) => ref.field),
    ];
    for (const field of fields) if (field !== 'id' && !json.has(field)) this.indexes.set(field, new Map());
  }

  /** Conditions with their relation filters resolved, and the test of the conditions left after `narrowed`. */
  prepare(where: readonly Condition[]): {
    narrowed: ReturnType<typeof candidates>;
    match: Matcher;
    where: readonly Condition[];
  } {
    const resolved = resolveRelated(where, this.idsOf);
    const narrowed = candidates(this.records, this.indexes, resolved);
    // The condition that chose the candidates holds for all of them: only the others are tested.
    const rest = narrowed ? resolved.filter((condition) => condition !== narrowed.by) : resolved;
    return { narrowed, match: matcher(rest, this.decimals), where: resolved };
  }

  /** The ids (or the values of `key`) of the records matching `where`, in no particular order. */
  idsMatching(where: readonly Condition[], key = 'id'): Scalar[] {
    const { narrowed, match } = this.prepare(where);
    const ids: Scalar[] = [];
    for (const record of narrowed?.records ?? this.records.values()) {
      if (match(record)) ids.push((record[key] ?? null) as Scalar);
    }
    return ids;
  }

  /** Whether a record has this id. */
  has(id: Id): boolean {
    return this.records.has(id);
  }

  /** The records whose `field` (an indexed attribute, or `id`) holds `value`; do not change the set. */
  holding(field: string, value: StoredValue): ReadonlySet<StoredRecord> {
    if (field === 'id') {
      const record = this.records.get(value as Id);
      return record ? new Set([record]) : NONE;
    }
    return this.indexes.get(field)?.get(value) ?? NONE;
  }

  /** Adds a record (new, or destroyed and coming back when a transaction is undone). */
  /** A copy of a record as the store answers it (the collection adds its sets of ids). */
  snapshot(record: StoredRecord): StoredRecord {
    return { ...record };
  }

  insert(record: StoredRecord): void {
    const id = record.id;
    this.records.set(id, record);
    const ids = this.ids;
    if (ids.length === 0 || precedes(ids[ids.length - 1] as Id, id)) ids.push(id);
    else {
      // A uuid, or a destroyed record coming back: its id goes in place (maybe onto its hole).
      let low = 0;
      let high = ids.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (precedes(ids[middle] as Id, id)) low = middle + 1;
        else high = middle;
      }
      if (ids[low] === id) this.holes--;
      else ids.splice(low, 0, id);
    }
    for (const [field, index] of this.indexes) addToIndex(index, record[field] ?? null, record);
  }

  /** Takes a record out; its id stays in `ids` as a hole until the next compaction. */
  remove(record: StoredRecord): void {
    const id = record.id;
    if (this.records.get(id) !== record) return;
    this.records.delete(id);
    for (const [field, index] of this.indexes) dropFromIndex(index, record[field] ?? null, record);
    this.holes++;
    if (this.holes > 64 && this.holes > this.ids.length / 2) {
      this.ids = this.ids.filter((live) => this.records.has(live));
      this.holes = 0;
    }
  }

  /** Sets one field of a stored record, keeping its index in step. */
  write(record: StoredRecord, field: string, value: StoredValue): void {
    const index = this.indexes.get(field);
    if (index) {
      const old = record[field] ?? null;
      if (old !== value) {
        dropFromIndex(index, old, record);
        addToIndex(index, value, record);
      }
    }
    record[field] = value;
  }

  /** Puts back a field's previous value (undo): through the indexes only if the record is stored. */
  restore(record: StoredRecord, field: string, value: StoredValue): void {
    if (this.records.get(record.id) === record) this.write(record, field, value);
    else record[field] = value;
  }

  /**
   * A page in id order over the whole collection, stopping early when the total is not needed;
   * with `after`, from the first id past it (found by binary search, so deep pages cost the same).
   */
  walkIds(
    direction: 'asc' | 'desc',
    match: Matcher,
    offset: number,
    limit: number,
    count: boolean,
    matchesAll: boolean,
    after?: Id,
  ): { records: StoredRecord[]; total: number | undefined } {
    const ids = this.ids;
    const records: StoredRecord[] = [];
    const wantTotal = count && !matchesAll;
    let matched = 0;
    const step = direction === 'asc' ? 1 : -1;
    let start = direction === 'asc' ? 0 : ids.length - 1;
    if (after !== undefined) {
      // The first index whose id is past `after` (ascending), or the last before it (descending).
      let low = 0;
      let high = ids.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        const id = ids[middle] as Id;
        if (precedes(id, after) || id === after) low = middle + 1;
        else high = middle;
      }
      start = direction === 'asc' ? low : low - 1 - (ids[low - 1] === after ? 1 : 0);
    }
    for (let i = start; i >= 0 && i < ids.length; i += step) {
      const record = this.records.get(ids[i] as Id);
      if (!record || !match(record)) continue;
      if (matched >= offset && records.length < limit) records.push(record);
      matched++;
      if (records.length === limit && !wantTotal) break;
    }
    return { records, total: !count ? undefined : matchesAll ? this.records.size : matched };
  }
}
