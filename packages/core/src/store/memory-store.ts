import { compareScalars } from './compare.js';
import type {
  CollectionSchema,
  Condition,
  FindManyQuery,
  FindManyResult,
  Order,
  Scalar,
  Store,
  StoredRecord,
  StoreProvider,
} from './store.js';

/**
 * The reference store: records live in the process's memory and vanish when it stops.
 * Use it for tests, prototypes and the quick start.
 *
 * @example
 * ```ts
 * app.use('/api', resourcery({ resources: [books], store: memoryStore() }));
 * ```
 */
export function memoryStore(): StoreProvider {
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

function matches(record: StoredRecord, where: readonly Condition[]): boolean {
  for (const condition of where) {
    const value = record[condition.field] ?? null;
    if (!condition.values.includes(value)) return false;
  }
  return true;
}

function comparator(order: readonly Order[]) {
  return (a: StoredRecord, b: StoredRecord): number => {
    for (const { field, direction } of order) {
      const result = compareScalars(a[field] ?? null, b[field] ?? null);
      if (result !== 0) return direction === 'asc' ? result : -result;
    }
    return 0;
  };
}

type Undo = () => void;

class MemoryCollection implements Store {
  readonly schema: CollectionSchema;
  private readonly records = new Map<number, StoredRecord>();
  private lastId = 0;

  constructor(schema: CollectionSchema) {
    this.schema = schema;
  }

  async findMany(query: FindManyQuery): Promise<FindManyResult> {
    const found: StoredRecord[] = [];
    for (const record of this.records.values()) if (matches(record, query.where)) found.push(record);
    found.sort(comparator(query.order));
    return {
      records: found.slice(query.offset, query.offset + query.limit).map(copy),
      total: query.count ? found.length : undefined,
    };
  }

  async findOne(id: number, where: readonly Condition[]): Promise<StoredRecord | undefined> {
    const record = this.records.get(id);
    return record && matches(record, where) ? copy(record) : undefined;
  }

  async create(values: Readonly<Partial<StoredRecord>>, log?: Undo[]): Promise<StoredRecord> {
    const id = ++this.lastId;
    const record: StoredRecord = { id };
    for (const attribute of this.schema.attributes) {
      if (attribute.name !== 'id') record[attribute.name] = values[attribute.name] ?? null;
    }
    this.records.set(id, record);
    log?.push(() => this.records.delete(id));
    return copy(record);
  }

  async update(
    id: number,
    changes: Readonly<Partial<StoredRecord>>,
    where: readonly Condition[],
    log?: Undo[],
  ): Promise<StoredRecord | undefined> {
    const record = this.records.get(id);
    if (!record || !matches(record, where)) return undefined;
    const before: Record<string, Scalar> = {};
    for (const [field, value] of Object.entries(changes)) {
      if (field === 'id' || value === undefined) continue;
      before[field] = record[field] ?? null;
      record[field] = value as Scalar;
    }
    log?.push(() => Object.assign(this.records.get(id) ?? {}, before));
    return copy(record);
  }

  async destroy(id: number, where: readonly Condition[], log?: Undo[]): Promise<boolean> {
    const record = this.records.get(id);
    if (!record || !matches(record, where)) return false;
    this.records.delete(id);
    log?.push(() => this.records.set(id, record));
    return true;
  }

  /**
   * Memory transactions keep an undo log of their own writes and revert them when `work`
   * rejects. They are not isolated from concurrent requests (memory has no locks).
   */
  transaction<T>(work: (store: Store) => Promise<T>, parentLog?: Undo[]): Promise<T> {
    return this.runInTransaction(work, parentLog);
  }

  private async runInTransaction<T>(work: (store: Store) => Promise<T>, parentLog?: Undo[]): Promise<T> {
    const log: Undo[] = [];
    const view: Store = {
      schema: this.schema,
      findMany: (query) => this.findMany(query),
      findOne: (id, where) => this.findOne(id, where),
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
}

function copy(record: StoredRecord): StoredRecord {
  return { ...record };
}
