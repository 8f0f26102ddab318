import type { CollectionSchema } from '../schema/types.js';
import type { Store } from '../store/store.js';

/** Prepares one store once; a failure is forgotten, so the next request tries again. */
export class Readiness {
  done = false;
  /** The schemas of the collections the store holds. */
  readonly schemas: CollectionSchema[] = [];
  private pending: Promise<void> | undefined;

  constructor(readonly store: Store) {}

  ready(): Promise<void> {
    this.pending ??= Promise.resolve(this.store.init?.(this.schemas)).then(
      () => {
        this.done = true; // from now on requests skip the wait
      },
      (error) => {
        this.pending = undefined;
        throw error;
      },
    );
    return this.pending;
  }
}
