import type { IndexQuery } from '../query/resolve-query.js';
import type { Condition, Store } from '../store/store.js';
import type { ActionContext, ActionName, ContextRequest, RecordOf, Resource } from './types.js';

/** The one implementation of {@link ActionContext}. */
export class Context implements ActionContext {
  query: IndexQuery | undefined = undefined;
  input: Partial<Record<string, unknown>> | undefined = undefined;
  record: RecordOf<Record<string, unknown>> | undefined = undefined;
  records: RecordOf<Record<string, unknown>>[] | undefined = undefined;
  total: number | undefined = undefined;
  result: unknown = undefined;
  status = 200;
  scope: Condition[] = [];
  readonly headers: Record<string, string> = {};
  responded = false;

  constructor(
    readonly action: ActionName,
    readonly resource: Resource,
    readonly request: ContextRequest,
    readonly id: number | undefined,
    public store: Store,
    public state: Record<string, unknown>,
  ) {}

  respond(body: unknown, status = 200): void {
    this.result = body;
    this.status = status;
    this.responded = true;
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    const outer = this.store;
    return outer.transaction(async (store) => {
      this.store = store;
      try {
        return await work();
      } finally {
        this.store = outer;
      }
    });
  }
}
