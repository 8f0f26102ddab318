import { toBase64Url } from '../schema/base64url.js';
import type { CollectionSchema, IdSet } from '../schema/types.js';
import { MemoryChangeLog, type MemoryChangesOptions, type NewChange } from './memory-changes.js';
import { MemoryCollection } from './memory-collection.js';
import type { Referrer, Tables, Undo } from './memory-table.js';
import type { Collection, Store, StoreTransaction } from './store.js';

/**
 * The reference store: records live in the process's memory and vanish when it stops.
 * Use it for tests, prototypes and the quick start.
 *
 * It behaves as the SQL stores do: integer ids from 1 (or uuid ids given with the values),
 * decimals ordered numerically, attribute defaults, unique sets (a violation names the last
 * field of the set), foreign keys between the collections of the same store (checked on write;
 * a destroy restricts, cascades or nullifies as each key says, all or nothing), store-wide
 * transactions with nested ones, and per-group limits (`total` then counts the records left
 * after the per-group cut). JSON values are copied in and out, so callers never share the
 * stored objects.
 *
 * Lists do not sort the collection per request: every indexed attribute (and every unique or
 * foreign key field) has a hash index (value → records) that narrows equality and `IN` filters
 * to their candidates, only the `offset + limit` first records of the order are kept (a bounded
 * heap), and the default id order walks the ids in order and stops as soon as the page is full.
 *
 * Transactions keep an undo log of their writes, across collections, and revert them when the
 * work rejects; they are not isolated from concurrent requests (memory has no locks).
 *
 * @example
 * ```ts
 * const store = memoryStore();
 * app.use('/api', resourcery({ resources: [authors, books], store }));
 * await store.transaction(async (tx) => {
 *   const author = await tx.collection(authorsSchema).create({ name: 'Herbert' });
 *   await tx.collection(booksSchema).create({ title: 'Dune', authorId: author.id });
 * });
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): Store & Required<Pick<Store, 'secret' | 'changes'>> {
  return new MemoryStore(options);
}

/** Options of {@link memoryStore}. */
export interface MemoryStoreOptions {
  /** How long and how many changes the log of live events keeps (see `MemoryChangesOptions`). */
  readonly changes?: MemoryChangesOptions;
}

const NONE: readonly Referrer[] = [];

/**
 * A new random secret: 32 bytes in base64url (43 characters), for {@link Store.secret}.
 *
 * @example
 * ```ts
 * const secret = randomSecret(); // 'Qm9v…'
 * ```
 */
export function randomSecret(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

class MemoryStore implements Store, Tables {
  private readonly collections = new Map<string, MemoryCollection>();
  /** Collection name → the foreign keys (of every collection created so far) pointing at it. */
  private readonly pointing = new Map<string, Referrer[]>();
  /** The store's secrets: its records live in this process only, so its secrets may too. */
  private readonly secrets = new Map<string, string>();
  private readonly log: MemoryChangeLog;
  /** Join collection name → the collections whose sets of ids it holds. */
  private readonly owners = new Map<string, { table: MemoryCollection; set: IdSet }[]>();
  /** The changes of each open transaction (by its undo log), logged when it commits. */
  private readonly pending = new WeakMap<Undo[], NewChange[]>();

  constructor(options: MemoryStoreOptions) {
    this.log = new MemoryChangeLog(options.changes);
  }

  changes(): MemoryChangeLog {
    return this.log;
  }

  setOwners(through: string): readonly { readonly table: MemoryCollection; readonly set: IdSet }[] {
    return this.owners.get(through) ?? [];
  }

  changed(change: NewChange, log?: Undo[]): void {
    if (!log) {
      this.log.append([change]);
      return;
    }
    const pending = this.pending.get(log);
    if (pending) pending.push(change);
    else this.pending.set(log, [change]);
  }

  collection(schema: CollectionSchema): Collection {
    return this.open(schema);
  }

  async init(schemas: readonly CollectionSchema[]): Promise<void> {
    for (const schema of schemas) this.open(schema);
  }

  transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    return this.run((log) => work(this.bound(log)));
  }

  async secret(name: string): Promise<string> {
    let secret = this.secrets.get(name);
    if (secret === undefined) {
      secret = randomSecret();
      this.secrets.set(name, secret);
    }
    return secret;
  }

  table(name: string): MemoryCollection | undefined {
    return this.collections.get(name);
  }

  referrers(name: string): readonly Referrer[] {
    return this.pointing.get(name) ?? NONE;
  }

  /**
   * Runs `work` as a transaction: nested in `parent`'s, or else after every transaction begun
   * before it has ended. Memory has no row locks, so transactions take turns: one that writes
   * several records (a bulk write) never interleaves with another.
   */
  run<T>(work: (log: Undo[]) => Promise<T>, parent?: Undo[]): Promise<T> {
    if (parent) return this.undoable(work, parent);
    const turn = this.turns.then(() => this.undoable(work));
    this.turns = turn.catch(() => undefined);
    return turn;
  }

  /** The transactions begun so far, settled in turn. */
  private turns: Promise<unknown> = Promise.resolve();

  private async undoable<T>(work: (log: Undo[]) => Promise<T>, parent?: Undo[]): Promise<T> {
    const log: Undo[] = [];
    try {
      const result = await work(log);
      const changes = this.pending.get(log);
      if (parent) {
        for (const undo of log) parent.push(undo);
        if (changes) for (const change of changes) this.changed(change, parent);
      } else if (changes) this.log.append(changes);
      return result;
    } catch (error) {
      for (let i = log.length - 1; i >= 0; i--) (log[i] as Undo)();
      throw error;
    }
  }

  private open(schema: CollectionSchema): MemoryCollection {
    let collection = this.collections.get(schema.name);
    if (!collection) {
      collection = new MemoryCollection(schema, this);
      this.collections.set(schema.name, collection);
      for (const set of schema.sets ?? []) {
        const list = this.owners.get(set.through);
        if (list) list.push({ table: collection, set });
        else this.owners.set(set.through, [{ table: collection, set }]);
      }
      for (const ref of schema.references ?? []) {
        const list = this.pointing.get(ref.collection);
        if (list) list.push({ table: collection, ref });
        else this.pointing.set(ref.collection, [{ table: collection, ref }]);
      }
    }
    return collection;
  }

  /** The store inside one transaction: every collection bound to the transaction's log. */
  private bound(log: Undo[]): StoreTransaction {
    return {
      collection: (schema) => this.open(schema).bound(log),
      transaction: (work) => this.run((inner) => work(this.bound(inner)), log),
    };
  }
}
