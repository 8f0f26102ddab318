import type { ActionName } from '../contract/actions.js';
import { requestIdOf } from '../http/request-id.js';
import { parseIndexQuery } from '../query/parse-query.js';
import { type IndexQuery, resolveIndexQuery } from '../query/resolve-query.js';
import type { Id } from '../schema/types.js';
import type { Collection, Condition, StoreTransaction } from '../store/store.js';
import type { CompiledResource } from './compile.js';
import type { ContextRequest, RecordOf } from './context-types.js';
import type { MountedResource, MountedResources } from './link.js';
import type { Resource } from './options.js';

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
  result: unknown = undefined;
  status = 200;
  where: Condition[] = [];
  readonly headers: Record<string, string> = {};
  responded = false;
  readonly resource: Resource;
  #query: IndexQuery | undefined;
  #requestId: string | undefined;
  /** The open store transaction, inside {@link Context.transaction}. */
  #transaction: StoreTransaction | undefined;
  /**
   * Wraps each collection handed out by {@link Context.transaction} and
   * {@link Context.collectionOf} (with the name of its resource): the API traces a request's
   * store calls with it. Unset, collections are handed out as they are.
   */
  wrapCollection: ((collection: Collection, resource: string) => Collection) | undefined = undefined;

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
  }

  /** Read lazily: without a logger nothing pays for an id no one reads. */
  get requestId(): string {
    this.#requestId ??= requestIdOf(this.request.headers['x-request-id']);
    return this.#requestId;
  }

  set requestId(id: string) {
    this.#requestId = id;
  }

  /** The index query, parsed and checked when first read. */
  get query(): IndexQuery {
    this.#query ??= resolveIndexQuery(
      parseIndexQuery(this.request.rawQuery, this.compiled.limits),
      this.compiled.query,
      this.mounted?.self.relatedFilters,
    );
    return this.#query;
  }

  set query(query: IndexQuery) {
    this.#query = query;
  }

  respond(body: unknown, status = 200): void {
    this.result = body;
    this.status = status;
    this.responded = true;
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
    const run = async (tx: StoreTransaction): Promise<T> => {
      this.#transaction = tx;
      this.collection = this.#bound(self, tx);
      try {
        return await work();
      } finally {
        this.#transaction = parent;
        this.collection = outer;
      }
    };
    return parent ? parent.transaction(run) : self.store.transaction(run);
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
    const collection = tx ? tx.collection(target.schema) : target.collection;
    return this.wrapCollection ? this.wrapCollection(collection, target.compiled.resource.name) : collection;
  }
}
