import type { CollectionSchema, Scalar } from '../schema/types.js';
import {
  addToIndex,
  candidates,
  comparator,
  dropFromIndex,
  type Matcher,
  matcher,
  topK,
  type ValueIndex,
} from './memory-query.js';
import type { Collection, Condition, ListQuery, ListResult, Store, StoredRecord } from './store.js';

/**
 * The reference store: records live in the process's memory and vanish when it stops.
 * Use it for tests, prototypes and the quick start.
 *
 * Lists do not sort the collection per request: every `schema.indexed` attribute has a hash
 * index (value → ids) that narrows equality and `IN` filters to their candidates, only the
 * `offset + limit` first records of the order are kept (a bounded heap), and the default id
 * order walks the ids in order and stops as soon as the page is full.
 *
 * @example
 * ```ts
 * app.use('/api', resourcery({ resources: [books], store: memoryStore() }));
 * ```
 */
export function memoryStore(): Store {
  const collections = new Map<string, MemoryCollection>();
  return {
    collection(schema) {
      let collection = collections.get(schema.name);
      if (!collection) {
        collection = new MemoryCollection(schema);
        collections.set(schema.name, collection);
      }
      return collection;
    },
  };
}

type Undo = () => void;

class MemoryCollection implements Collection {
  readonly schema: CollectionSchema;
  private readonly records = new Map<number, StoredRecord>();
  /** Every live id in ascending order, plus holes (ids deleted since the last compaction). */
  private ids: number[] = [];
  private holes = 0;
  /** `field → value → records` for every indexed attribute. */
  private readonly indexes = new Map<string, ValueIndex>();
  private lastId = 0;

  constructor(schema: CollectionSchema) {
    this.schema = schema;
    for (const field of schema.indexed) if (field !== 'id') this.indexes.set(field, new Map());
  }

  async list(query: ListQuery): Promise<ListResult> {
    const { where, order, offset, limit } = query;
    const first = order[0];
    const narrowed = candidates(this.records, this.indexes, where);
    const narrowedTo = narrowed?.records;
    // The condition that chose the candidates holds for all of them: only the others are tested.
    const match = matcher(narrowed ? where.filter((condition) => condition !== narrowed.by) : where);
    let records: StoredRecord[];
    let total: number | undefined;
    if (narrowedTo === undefined && first?.field === 'id') {
      // Id order over the whole collection: walk the ids and stop once the page is full.
      ({ records, total } = this.walkIds(first.direction, match, offset, limit, query.count, where.length === 0));
    } else {
      const source = narrowedTo ?? this.records.values();
      const { best, matched } = topK(source, match, comparator(order), offset + limit);
      records = best.slice(offset);
      total = query.count ? matched : undefined;
    }
    return { records: records.map(copy), total };
  }

  async find(id: number, where: readonly Condition[]): Promise<StoredRecord | undefined> {
    const record = this.records.get(id);
    return record && matcher(where)(record) ? copy(record) : undefined;
  }

  async create(values: Readonly<Partial<StoredRecord>>, log?: Undo[]): Promise<StoredRecord> {
    const id = ++this.lastId;
    const record: StoredRecord = { id };
    for (const attribute of this.schema.attributes) {
      if (attribute.name !== 'id') record[attribute.name] = values[attribute.name] ?? null;
    }
    this.insert(record);
    log?.push(() => this.remove(record));
    return copy(record);
  }

  async update(
    id: number,
    changes: Readonly<Partial<StoredRecord>>,
    where: readonly Condition[],
    log?: Undo[],
  ): Promise<StoredRecord | undefined> {
    const record = this.records.get(id);
    if (!record || !matcher(where)(record)) return undefined;
    // The previous values are kept only inside a transaction, to undo the write.
    const before: Record<string, Scalar> | undefined = log ? {} : undefined;
    for (const field of Object.keys(changes)) {
      const value = changes[field];
      if (field === 'id' || value === undefined) continue;
      if (before) before[field] = record[field] ?? null;
      this.write(record, field, value as Scalar);
    }
    if (log && before) {
      log.push(() => {
        const current = this.records.get(id);
        if (current) for (const [field, value] of Object.entries(before)) this.write(current, field, value);
      });
    }
    return copy(record);
  }

  async destroy(id: number, where: readonly Condition[], log?: Undo[]): Promise<boolean> {
    const record = this.records.get(id);
    if (!record || !matcher(where)(record)) return false;
    this.remove(record);
    log?.push(() => this.insert(record));
    return true;
  }

  /**
   * Memory transactions keep an undo log of their own writes and revert them when `work`
   * rejects. They are not isolated from concurrent requests (memory has no locks).
   */
  transaction<T>(work: (store: Collection) => Promise<T>, parentLog?: Undo[]): Promise<T> {
    return this.runInTransaction(work, parentLog);
  }

  private async runInTransaction<T>(work: (store: Collection) => Promise<T>, parentLog?: Undo[]): Promise<T> {
    const log: Undo[] = [];
    const view: Collection = {
      schema: this.schema,
      list: (query) => this.list(query),
      find: (id, where) => this.find(id, where),
      create: (values) => this.create(values, log),
      update: (id, changes, where) => this.update(id, changes, where, log),
      destroy: (id, where) => this.destroy(id, where, log),
      transaction: (inner) => this.runInTransaction(inner, log),
    };
    try {
      const result = await work(view);
      parentLog?.push(...log);
      return result;
    } catch (error) {
      for (const undo of log.reverse()) undo();
      throw error;
    }
  }

  /** A page in id order over the whole collection, stopping early when the total is not needed. */
  private walkIds(
    direction: 'asc' | 'desc',
    match: Matcher,
    offset: number,
    limit: number,
    count: boolean,
    matchesAll: boolean,
  ): { records: StoredRecord[]; total: number | undefined } {
    const ids = this.ids;
    const records: StoredRecord[] = [];
    const wantTotal = count && !matchesAll;
    let matched = 0;
    const step = direction === 'asc' ? 1 : -1;
    for (let i = direction === 'asc' ? 0 : ids.length - 1; i >= 0 && i < ids.length; i += step) {
      const record = this.records.get(ids[i] as number);
      if (!record || !match(record)) continue;
      if (matched >= offset && records.length < limit) records.push(record);
      matched++;
      if (records.length === limit && !wantTotal) break;
    }
    return { records, total: !count ? undefined : matchesAll ? this.records.size : matched };
  }

  private insert(record: StoredRecord): void {
    const id = record.id;
    this.records.set(id, record);
    const ids = this.ids;
    if (ids.length === 0 || (ids[ids.length - 1] as number) < id) ids.push(id);
    else {
      // A destroyed record coming back (a transaction undone): its id goes back in place.
      let low = 0;
      let high = ids.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if ((ids[middle] as number) < id) low = middle + 1;
        else high = middle;
      }
      if (ids[low] === id) this.holes--;
      else ids.splice(low, 0, id);
    }
    for (const [field, index] of this.indexes) addToIndex(index, record[field] ?? null, record);
  }

  private remove(record: StoredRecord): void {
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

  private write(record: StoredRecord, field: string, value: Scalar): void {
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
}

function copy(record: StoredRecord): StoredRecord {
  return { ...record };
}
