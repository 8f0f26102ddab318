import type { ActionName } from '../contract/actions.js';
import { parseIndexQuery } from '../query/parse-query.js';
import { type IndexQuery, resolveIndexQuery } from '../query/resolve-query.js';
import type { Collection, Condition } from '../store/store.js';
import type { CompiledResource } from './compile.js';
import type { ContextRequest, RecordOf } from './context-types.js';
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

  constructor(
    readonly compiled: CompiledResource,
    readonly action: ActionName,
    readonly request: ContextRequest,
    readonly id: number,
    public collection: Collection,
    public state: Record<string, unknown>,
  ) {
    this.resource = compiled.resource;
  }

  /** The index query, parsed and checked when first read. */
  get query(): IndexQuery {
    this.#query ??= resolveIndexQuery(
      parseIndexQuery(this.request.rawQuery, this.compiled.limits),
      this.compiled.query,
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
    return outer.transaction(async (inner) => {
      this.collection = inner;
      try {
        return await work();
      } finally {
        this.collection = outer;
      }
    });
  }
}
