import type {
  AggregateQuery,
  Collection,
  CollectionSchema,
  Condition,
  Id,
  ListQuery,
  StoredRecord,
  StoreRetry,
} from '@resourcery/core/store';
import type { CollectionPlan, Db } from '../store/collection-plan.js';
import { inTransaction, type OpenTransaction } from '../store/run-transaction.js';
import { SqlCollection } from '../store/sql-collection.js';
import { conflictCode, translateDriverError } from '../store/translate-error.js';
import { lockedRecords, logChange } from './capture.js';
import { destroyEffects, reachesLive } from './cascades.js';
import type { SqlChangeLog } from './change-log.js';

/** What a live collection needs of its store: the log, and the plans of the other collections (for cascades). */
export interface LiveContext {
  readonly log: SqlChangeLog;
  readonly planOf: (schema: CollectionSchema) => CollectionPlan;
}

/**
 * A collection of a store with a change log: a {@link SqlCollection} whose every write, when its
 * schema is live, also queues its change on its transaction, to be written to the change log
 * just before COMMIT; and whose destroy, live or not, queues the changes it makes to records of
 * live collections (cascaded, nullified, or losing it from a set of ids). Such a write outside a
 * transaction runs in one of its own (run again after a conflict, as a statement would be), so
 * that it commits with its changes or not at all. Every other call goes straight to the
 * SqlCollection: a collection that is not live, and whose destroy reaches none, costs nothing.
 *
 * @example
 * ```ts
 * const issues = new LiveCollection(plan, db, { log, planOf });
 * await issues.update(7, { status: 'done' }, []); // logs { kind: 'updated', before, after }
 * ```
 */
export class LiveCollection implements Collection {
  readonly schema: CollectionSchema;
  readonly #inner: SqlCollection;

  constructor(
    private readonly plan: CollectionPlan,
    private readonly db: Db,
    private readonly live: LiveContext,
    private readonly open?: OpenTransaction,
    private readonly onRetry?: (retry: StoreRetry) => void,
    /** Whether its reads stay on the primary, never on a read replica (see `SqlCollection.primary`). */
    private readonly onPrimary = false,
  ) {
    this.schema = plan.schema;
    this.#inner = new SqlCollection(plan, db, open, onRetry, onPrimary);
  }

  reportingRetries(listener: (retry: StoreRetry) => void): Collection {
    return this.open ? this : new LiveCollection(this.plan, this.db, this.live, undefined, listener, this.onPrimary);
  }

  /** This collection reading from the primary, when the store has read replicas. */
  primary(): Collection {
    if (this.open || this.onPrimary || !this.plan.replicas) return this;
    return new LiveCollection(this.plan, this.db, this.live, undefined, this.onRetry, true);
  }

  list(query: ListQuery) {
    return this.#inner.list(query);
  }

  aggregate(query: AggregateQuery) {
    return this.#inner.aggregate(query);
  }

  find(id: Id, where: readonly Condition[]) {
    return this.#inner.find(id, where);
  }

  create(values: Readonly<Partial<StoredRecord>>): Promise<StoredRecord> {
    if (!this.schema.live) return this.#inner.create(values);
    return this.#write(async (collection, _tx, open) => {
      const created = await collection.create(values);
      logChange(open, this.live.log, this.schema, 'created', null, created);
      return created;
    });
  }

  createMany(values: readonly Readonly<Partial<StoredRecord>>[]): Promise<StoredRecord[]> {
    if (!this.schema.live || values.length === 0) return this.#inner.createMany(values);
    return this.#write(async (collection, _tx, open) => {
      const created = await collection.createMany(values);
      for (const record of created) logChange(open, this.live.log, this.schema, 'created', null, record);
      return created;
    });
  }

  update(id: Id, changes: Readonly<Partial<StoredRecord>>, where: readonly Condition[]) {
    // Nothing to write (or no such id): the SqlCollection answers without writing.
    if (!this.schema.live || Object.keys(changes).length === 0 || !this.plan.validId(id)) {
      return this.#inner.update(id, changes, where);
    }
    return this.#write(async (collection, tx, open) => {
      const [before] = await lockedRecords(this.plan, tx, [id]);
      if (!before) return undefined;
      const after = await collection.update(id, changes, where);
      if (after) logChange(open, this.live.log, this.schema, 'updated', before, after);
      return after;
    });
  }

  destroy(id: Id, where: readonly Condition[]): Promise<boolean> {
    const { live } = this.schema;
    if (!this.plan.validId(id) || !(live || reachesLive(this.plan.catalog, this.schema.name))) {
      return this.#inner.destroy(id, where);
    }
    return this.#write(async (collection, tx, open) => {
      const [before] = await lockedRecords(this.plan, tx, [id]);
      if (!before) return false;
      const effects = await destroyEffects(this.plan, this.live.planOf, tx, [id]);
      if (!(await collection.destroy(id, where))) return false;
      const { log } = this.live;
      if (live) logChange(open, log, this.schema, 'destroyed', before, null);
      for (const effect of effects) logChange(open, log, effect.schema, effect.kind, effect.before, effect.after);
      return true;
    });
  }

  transaction<T>(work: (collection: Collection) => Promise<T>): Promise<T> {
    return inTransaction(
      this.db,
      this.open,
      (tx, open) => work(tx === this.db ? this : new LiveCollection(this.plan, tx, this.live, open)),
      (error) => this.#translate(error),
    ).finally(() => this.open || this.plan.replicas?.wrote());
  }

  /**
   * Runs a write on this collection's transaction, or in a new one of its own (run again after
   * a conflict, as the store's retries allow).
   */
  #write<T>(work: (collection: SqlCollection, tx: Db, open: OpenTransaction) => Promise<T>): Promise<T> {
    if (this.open) return work(this.#inner, this.db, this.open);
    const attempt = () =>
      inTransaction(
        this.db,
        undefined,
        (tx, open) => work(new SqlCollection(this.plan, tx, open), tx, open),
        (error) => this.#translate(error),
      );
    const { retries, replicas } = this.plan;
    const written = () => replicas?.wrote();
    if (!retries) return attempt().finally(written);
    const started = Date.now();
    const about = { scope: 'statement', collection: this.schema.name } as const;
    return attempt()
      .catch((error) => retries.retry(error, started, attempt, conflictCode, about, this.onRetry))
      .finally(written);
  }

  #translate(error: unknown): unknown {
    const { plan } = this;
    return translateDriverError(error, this.schema, [plan.dialect], { catalog: plan.catalog });
  }
}

/**
 * The collection of a schema on `db` (bound to the open transaction `open`, if any): a
 * {@link LiveCollection} when the store has a change log, else a plain {@link SqlCollection}.
 *
 * @example
 * ```ts
 * const books = collectionOn(plan, db, live);
 * ```
 */
export function collectionOn(
  plan: CollectionPlan,
  db: Db,
  live: LiveContext | undefined,
  open?: OpenTransaction,
): Collection {
  return live ? new LiveCollection(plan, db, live, open) : new SqlCollection(plan, db, open);
}
