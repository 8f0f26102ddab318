import type { CollectionSchema, Id, IdSet, StoredValue } from '../schema/types.js';
import { aggregateRecords } from './memory-aggregate.js';
import { checkReferences, checkUnique, checkValues, destroyed, destroyWithReferences } from './memory-constraints.js';
import { matcher, resolveRelated } from './memory-filter.js';
import { listPage } from './memory-list.js';
import { addSets, replaceSet, splitSets } from './memory-sets.js';
import { MemoryTable, recordCopier, type Tables, type Undo } from './memory-table.js';
import type {
  AggregateQuery,
  AggregateRow,
  Collection,
  Condition,
  ListQuery,
  ListResult,
  StoredRecord,
} from './store.js';
import { ConstraintViolation } from './store-errors.js';
import { type ServerValues, serverValues } from './write-values.js';

/** A non-id attribute as `create` fills it: the value when absent, and whether it is JSON (copied). */
interface Field {
  readonly name: string;
  readonly absent: StoredValue;
  readonly json: boolean;
}

/**
 * One collection of a memory store. Writes check the allowed values, the unique sets and the
 * foreign keys first, so a refused write changes nothing; every write inside a transaction pushes
 * its undo to the transaction's log, shared by every collection of the store.
 */
export class MemoryCollection extends MemoryTable implements Collection {
  private readonly fields: readonly Field[];
  private readonly uuid: boolean;
  /** A uuid id, timestamps and defaults, added to every write whoever makes it. */
  private readonly server: ServerValues;
  /** Whether creates and updates have unique sets or foreign keys to check. */
  private readonly constrained: boolean;
  private readonly jsons: ReadonlySet<string>;
  /** What callers get: a copy, deep for JSON values so that nobody changes the stored ones. */
  private readonly copy: (record: StoredRecord) => StoredRecord;
  private lastId = 0;
  /** The sets of ids the records hold through join collections (`labelIds`). */
  private readonly sets: readonly IdSet[];

  constructor(schema: CollectionSchema, tables: Tables) {
    super(schema, tables);
    this.sets = schema.sets ?? [];
    const attributes = schema.attributes.filter((attribute) => attribute.name !== 'id');
    this.fields = attributes.map((a) => ({ name: a.name, absent: a.default ?? null, json: a.type === 'json' }));
    this.uuid = schema.attributes[0]?.type === 'uuid';
    this.server = serverValues(schema);
    this.constrained =
      (schema.unique?.length ?? 0) > 0 ||
      (schema.references?.length ?? 0) > 0 ||
      schema.attributes.some((attribute) => attribute.values !== undefined);
    const jsons = attributes.filter((a) => a.type === 'json').map((a) => a.name);
    this.jsons = new Set(jsons);
    this.copy = recordCopier(jsons);
  }

  /** See {@link listPage}; with `select`, each record has `id` and the selected attributes only. */
  async list(query: ListQuery): Promise<ListResult> {
    const { records, total } = listPage(this, query);
    const { select } = query;
    const out = select ? records.map((record) => this.pick(record, select)) : records.map(this.copy);
    if (this.sets.length > 0) for (const record of out) addSets(this.tables, this.sets, record, select);
    return { records: out, total };
  }

  /** See {@link aggregateRecords}: the store suite's oracle for every other store. */
  async aggregate(query: AggregateQuery): Promise<AggregateRow[]> {
    return aggregateRecords(this, query);
  }

  async find(id: Id, where: readonly Condition[]): Promise<StoredRecord | undefined> {
    const record = this.records.get(id);
    return record && this.matches(record, where) ? this.snapshot(record) : undefined;
  }

  /** What callers (and the change log) get of a stored record: a copy, with its sets of ids. */
  override snapshot(record: StoredRecord): StoredRecord {
    const copied = this.copy(record);
    if (this.sets.length > 0) addSets(this.tables, this.sets, copied);
    return copied;
  }

  /** Integer ids are assigned (1, 2, 3...; never reused); a uuid id is made unless `values.id` gives one. */
  async create(values: Readonly<Partial<StoredRecord>>, log?: Undo[]): Promise<StoredRecord> {
    const { own, given } = splitSets(this.sets, values);
    const created =
      given.length === 0
        ? await this.createOwn(own, log)
        : // The record and its join records, all or nothing.
          await this.tables.run(async (inner) => {
            const record = await this.createOwn(own, inner);
            for (const [set, ids] of given) await replaceSet(this.tables, set, record.id, ids, inner);
            return this.snapshot(this.records.get(record.id) as StoredRecord);
          }, log);
    if (this.schema.live) this.logChange('created', created.id, null, log);
    return created;
  }

  /** Logs a change of a record of this (live) collection; the record after it is read from the table. */
  private logChange(kind: 'created' | 'updated', id: Id, before: StoredRecord | null, log?: Undo[]): void {
    const after = this.snapshot(this.records.get(id) as StoredRecord);
    this.tables.changed({ collection: this.schema.name, kind, id, before, after }, log);
  }

  /**
   * All or none: each record created as `create` does (so in the order given, each checked
   * against the records before it in the batch), in one undo log that reverts every one of them
   * when one is refused. Ids taken by the reverted records are not given again.
   */
  async createMany(values: readonly Readonly<Partial<StoredRecord>>[], log?: Undo[]): Promise<StoredRecord[]> {
    return this.tables.run(async (inner) => {
      const created: StoredRecord[] = [];
      for (const one of values) created.push(await this.create(one, inner));
      return created;
    }, log);
  }

  private async createOwn(given: Readonly<Partial<StoredRecord>>, log?: Undo[]): Promise<StoredRecord> {
    const values = this.server.create(given);
    const id = this.uuid ? values.id : this.lastId + 1;
    if (this.uuid) {
      if (typeof id !== 'string') throw new TypeError(`${this.schema.name}: a uuid id is a string`);
      if (this.records.has(id)) throw new ConstraintViolation('unique', 'id');
    }
    const record: StoredRecord = { id: id as Id };
    for (const { name, absent, json } of this.fields) {
      const value = values[name] as StoredValue | undefined;
      record[name] = value === undefined ? absent : json && value !== null ? structuredClone(value) : value;
    }
    if (this.constrained) {
      checkValues(this, record);
      checkUnique(this, record, undefined);
      checkReferences(this.tables, this, record, undefined, id as Id);
    }
    if (!this.uuid) this.lastId++;
    this.insert(record);
    log?.push(() => this.remove(record));
    return this.snapshot(record);
  }

  async update(
    id: Id,
    values: Readonly<Partial<StoredRecord>>,
    where: readonly Condition[],
    log?: Undo[],
  ): Promise<StoredRecord | undefined> {
    const record = this.records.get(id);
    if (!record || !this.matches(record, where)) return undefined;
    const before = this.schema.live ? this.snapshot(record) : null;
    // A set given counts as a change: `updatedAt` moves with it.
    const { own: changes, given } = splitSets(this.sets, this.server.update(values));
    const updated =
      given.length === 0
        ? await this.updateOwn(record, changes, log)
        : await this.tables.run(async (inner) => {
            await this.updateOwn(record, changes, inner);
            for (const [set, ids] of given) await replaceSet(this.tables, set, id, ids, inner);
            return this.snapshot(record);
          }, log);
    if (before) this.logChange('updated', id, before, log);
    return updated;
  }

  private async updateOwn(
    record: StoredRecord,
    changes: Readonly<Partial<StoredRecord>>,
    log?: Undo[],
  ): Promise<StoredRecord> {
    const { id } = record;
    if (this.constrained) {
      checkValues(this, changes);
      checkUnique(this, changes, record);
      checkReferences(this.tables, this, changes, record, id);
    }
    // The previous values are kept only inside a transaction, to undo the write.
    const before: Record<string, StoredValue> | undefined = log ? {} : undefined;
    for (const field of Object.keys(changes)) {
      let value = changes[field];
      if (field === 'id' || value === undefined) continue;
      if (value !== null && this.jsons.size > 0 && this.jsons.has(field)) value = structuredClone(value);
      if (before) before[field] = record[field] ?? null;
      this.write(record, field, value);
    }
    if (log && before) {
      log.push(() => {
        for (const [field, value] of Object.entries(before)) this.restore(record, field, value);
      });
    }
    return this.snapshot(record);
  }

  async destroy(id: Id, where: readonly Condition[], log?: Undo[]): Promise<boolean> {
    const record = this.records.get(id);
    if (!record || !this.matches(record, where)) return false;
    if (this.tables.referrers(this.schema.name).length > 0) destroyWithReferences(this.tables, this, record, log);
    else {
      if (this.schema.live) this.tables.changed(destroyed(this, record), log);
      this.remove(record);
      log?.push(() => this.insert(record));
    }
    return true;
  }

  /**
   * A transaction of the store over this collection: an undo log of the writes, reverted when
   * `work` rejects. Memory transactions are not isolated from concurrent requests (memory has
   * no locks).
   */
  transaction<T>(work: (collection: Collection) => Promise<T>): Promise<T> {
    return this.tables.run((log) => work(this.bound(log)));
  }

  /** Whether a record is inside the scope `where`. */
  private matches(record: StoredRecord, where: readonly Condition[]): boolean {
    return where.length === 0 || matcher(resolveRelated(where, this.idsOf), this.decimals)(record);
  }

  /** A copy of `id` and the `select`ed attributes of a record. */
  private pick(record: StoredRecord, select: readonly string[]): StoredRecord {
    const picked: StoredRecord = { id: record.id };
    for (const field of select) {
      const value = record[field] ?? null;
      if (field !== 'id') picked[field] = value !== null && this.jsons.has(field) ? structuredClone(value) : value;
    }
    return picked;
  }

  /** This collection with its writes recorded in `log` (a transaction's). */
  bound(log: Undo[]): Collection {
    return {
      schema: this.schema,
      list: (query) => this.list(query),
      aggregate: (query) => this.aggregate(query),
      find: (id, where) => this.find(id, where),
      create: (values) => this.create(values, log),
      createMany: (values) => this.createMany(values, log),
      update: (id, changes, where) => this.update(id, changes, where, log),
      destroy: (id, where) => this.destroy(id, where, log),
      transaction: (work) => this.tables.run((inner) => work(this.bound(inner)), log),
    };
  }
}
