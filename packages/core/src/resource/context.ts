import type { Principal } from '../access/principal.js';
import type { FieldView } from '../access/resource-access.js';
import type { ActionName } from '../contract/actions.js';
import { type Keys, keysOfProcess } from '../http/keys.js';
import type { NeutralRequest } from '../http/neutral.js';
import { requestIdOf } from '../http/request-id.js';
import { parseIndexQuery } from '../query/parse-query.js';
import { type IndexQuery, resolveIndexQuery } from '../query/resolve-query.js';
import { parseStatsQuery, type StatsQuery } from '../query/stats-query.js';
import type { Id } from '../schema/types.js';
import type { AggregateRow, Collection, Condition, StoreRetry, StoreTransaction } from '../store/store.js';
import { StoreUnavailable } from '../store/store-errors.js';
import type { CompiledResource } from './compile.js';
import { type ContextRequest, DONE, type Done, type RecordOf } from './context-types.js';
import type { MountedResource, MountedResources } from './link.js';
import type { Resource } from './options.js';
import { primaryOf, readsPrimary, storeCollection } from './primary-reads.js';
import { fullView, relatedLookup } from './related.js';
import { statsAllowed } from './stats.js';

type Rec = RecordOf<Record<string, unknown>>;

/**
 * The one implementation of every action's context; `ActionContext` is the typed view hooks
 * and steps see (which members exist depends on the action).
 */
export class Context {
  input: Partial<Record<string, unknown>> | undefined = undefined;
  record: Rec | undefined = undefined;
  records: Rec[] | undefined = undefined;
  total: number | undefined = undefined;
  estimated = false;
  /** The groups a statistics request found, once aggregated. */
  rows: AggregateRow[] | undefined = undefined;
  result: unknown = undefined;
  status = 200;
  where: Condition[] = [];
  readonly headers: Record<string, string> = {};
  responded = false;
  /** A bulk update or destroy (`PATCH` or `DELETE` on the collection); a bulk create is told by its body. */
  bulk = false;
  /** Within a bulk write, whether the caller may read what its records' keys name (`<collection> <id>`), asked once per id. */
  references: Map<string, boolean> | undefined = undefined;
  readonly resource: Resource;
  /** Who the request comes from, as the API's `authenticate` answered; `undefined` when anonymous. */
  principal: Principal | undefined = undefined;
  /** The conditions of the records this caller may read (their read rule and tenancy), as admitted. */
  reads: readonly Condition[] = [];
  /** The conditions of the records this caller may take this write on (create, update, destroy rules). */
  rule: readonly Condition[] = [];
  /** What this caller may read through each belongs-to relation a query filters on (`filter[author.name]`; related.ts). */
  relatedReads: ReadonlyMap<string, readonly Condition[]> | undefined = undefined;
  #query: IndexQuery | undefined;
  #stats: StatsQuery | undefined;
  #view: FieldView | undefined;
  #requestId: string | undefined;
  /** The open store transaction, inside {@link Context.transaction}. */
  #transaction: StoreTransaction | undefined;
  /** Whether the work of the outermost open transaction did something outside the store ({@link Context.sideEffect}). */
  #effects: { done: boolean } | undefined;
  /** Wraps each collection {@link Context.transaction} and {@link Context.collectionOf} hand out (the API traces with it). */
  wrapCollection: ((collection: Collection, resource: string) => Collection) | undefined = undefined;
  /** Told of each retry of {@link Context.transaction}'s store transaction: the API logs and traces it. */
  onRetry: ((retry: StoreRetry) => void) | undefined = undefined;
  /** Whether its store calls read from the primary, not a read replica (write actions: primary-reads.ts). */
  readsPrimary: boolean;

  constructor(
    readonly compiled: CompiledResource,
    readonly action: ActionName,
    readonly request: ContextRequest,
    readonly id: Id,
    public collection: Collection,
    public state: Record<string, unknown>,
    /** This resource and the others of its API; absent for a context made without an API. */
    readonly mounted?: { readonly self: MountedResource; readonly api: MountedResources },
  ) {
    this.resource = compiled.resource;
    this.readsPrimary = readsPrimary(action);
    if (this.readsPrimary) this.collection = primaryOf(collection);
  }

  /** Read lazily: without a logger nothing pays for an id no one reads. */
  get requestId(): string {
    this.#requestId ??= requestIdOf(this.request.headers['x-request-id']);
    return this.#requestId;
  }

  set requestId(id: string) {
    this.#requestId = id;
  }

  /** The keys of entity tags and cursors: the API's, else random ones of this process. */
  get keys(): Keys {
    return this.mounted?.api.keys ?? keysOfProcess();
  }

  /** What this caller may read and write of the resource's fields. */
  get view(): FieldView {
    this.#view ??= this.mounted?.self.access.view(this.principal) ?? fullView(this.compiled);
    return this.#view;
  }

  /** The index query, parsed and checked (against what this caller may read) when first read. */
  get query(): IndexQuery {
    // Statistics refuse the index parameters they do not take before the filters are resolved.
    if (this.action === 'stats') void this.stats;
    this.#query ??= resolveIndexQuery(
      parseIndexQuery(this.request.rawQuery, this.compiled.limits),
      this.view.query,
      // Only a relation filter (`filter[author.name]`) needs it.
      this.request.rawQuery.includes('.') ? relatedLookup(this) : undefined,
    );
    return this.#query;
  }

  set query(query: IndexQuery) {
    this.#query = query;
  }

  /** The statistics parameters (`group`, `sum`, `min`, `max`), checked against what this caller may read. */
  get stats(): StatsQuery {
    const rules = this.compiled.stats ?? { group: new Set(), sum: new Set(), min: new Set(), max: new Set() };
    this.#stats ??= parseStatsQuery(this.request.rawQuery, statsAllowed(rules, this.view.hidden));
    return this.#stats;
  }

  set stats(stats: StatsQuery) {
    this.#stats = stats;
  }

  respond(body: unknown, status = 200): Done {
    this.result = body;
    this.status = status;
    this.responded = true;
    return DONE;
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    const outer = this.collection;
    const self = this.mounted?.self;
    if (!self) {
      return outer.transaction(async (inner) => {
        this.collection = inner;
        try {
          return await work();
        } finally {
          this.collection = outer;
        }
      });
    }
    const parent = this.#transaction;
    const parentEffects = this.#effects;
    const effects = parentEffects ?? { done: false };
    let runs = 0;
    const run = async (tx: StoreTransaction): Promise<T> => {
      // Also when a store wrapper lost `tx.sideEffect` on its way: work that went outside the store never runs twice.
      if (!parent && runs++ > 0 && effects.done) throw new StoreUnavailable(new Error('it had side effects'));
      this.#transaction = tx;
      this.#effects = effects;
      this.collection = this.#bound(self, tx);
      try {
        return await work();
      } finally {
        this.#transaction = parent;
        this.#effects = parentEffects;
        this.collection = outer;
      }
    };
    if (parent) return parent.transaction(run);
    return self.store.transaction(run, this.onRetry && { onRetry: this.onRetry });
  }

  /** Whether a store transaction of {@link Context.transaction} is open. */
  get inTransaction(): boolean {
    return this.#transaction !== undefined;
  }

  /** The open transaction (its outermost one) is never run again after a conflict: it did something outside the store. */
  sideEffect(): void {
    if (this.#effects) this.#effects.done = true;
    this.#transaction?.sideEffect?.();
  }

  /**
   * A context of a related resource of the same API, for that resource's own steps (scope,
   * render) to run in when a request reads through a relation: the same request, principal and
   * state, the action `index`, and the open transaction if any.
   */
  relatedTo(target: MountedResource): Context {
    const api = this.mounted?.api as MountedResources;
    const related = new Context(
      target.compiled,
      'index',
      this.request,
      0,
      this.#bound(target, this.#transaction),
      this.state,
      {
        self: target,
        api,
      },
    );
    related.principal = this.principal;
    related.wrapCollection = this.wrapCollection;
    related.readsPrimary = this.readsPrimary;
    return related;
  }

  /**
   * The context of one record of a bulk write (or an upsert): the same request, principal, state
   * and open transaction, its own action, id and request (the record's body and `If-Match`).
   */
  forRecord(action: ActionName, id: Id | undefined, request: NeutralRequest): Context {
    const { method, path, basePath, rawQuery, headers, native } = request;
    const seen: ContextRequest = { method, path, basePath, rawQuery, headers, native };
    const record = new Context(this.compiled, action, seen, id as Id, this.collection, this.state, this.mounted);
    record.principal = this.principal;
    record.wrapCollection = this.wrapCollection;
    record.#transaction = this.#transaction;
    record.#effects = this.#effects;
    record.#requestId = this.#requestId;
    this.references ??= new Map();
    record.references = this.references;
    return record;
  }

  collectionOf(resource: Resource): Collection {
    const target = this.mounted?.api.of(resource);
    if (!target) {
      throw new TypeError(`ctx.collectionOf(${resource.name}): that resource is not served by this context's API`);
    }
    if (target === this.mounted?.self) return this.collection;
    const tx = this.#transaction;
    if (tx && target.store !== this.mounted?.self.store) {
      throw new TypeError(`ctx.collectionOf(${resource.name}) inside a transaction: it is in another store`);
    }
    return this.#bound(target, tx);
  }

  /** The collection of a mounted resource, in the open transaction if any, wrapped if asked. */
  #bound(target: MountedResource, tx: StoreTransaction | undefined): Collection {
    const collection = tx ? tx.collection(target.schema) : storeCollection(this, target);
    return this.wrapCollection ? this.wrapCollection(collection, target.compiled.resource.name) : collection;
  }
}
