import { Keys } from '../http/keys.js';
import type { MountedResources } from '../resource/link.js';
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

/**
 * Loads the API's keys once: from its `secret` option at once, else from its store's secret when
 * first needed (a failure is forgotten, so the next request tries again, as the store's readiness).
 */
export function keysLoader(
  options: { readonly secret?: string; readonly store: Store },
  resources: MountedResources,
): () => Promise<void> {
  const { secret, store } = options;
  if (secret !== undefined) {
    if (typeof secret !== 'string' || secret.length < 16) {
      throw new TypeError('createApi: secret must be a string of at least 16 characters');
    }
    resources.keys = new Keys(secret);
    return async () => {};
  }
  if (typeof store.secret !== 'function') {
    throw new TypeError(
      'createApi: the store keeps no secret (Store.secret) for entity tags and cursors: set the `secret` option, the same in every process',
    );
  }
  let pending: Promise<void> | undefined;
  return () => {
    pending ??= (store.secret as (name: string) => Promise<string>)('resourcery').then(
      (kept) => {
        resources.keys = new Keys(kept);
      },
      (error) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
}
