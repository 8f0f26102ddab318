import { type ContextOf, memoryStore, type Resource } from '@resourcery/core';
import { type ActionName, compiledResource, createContext } from '@resourcery/core/adapter';
import type { Collection, Id, Store } from '@resourcery/core/store';

/** What {@link createTestContext} can preset; the collection defaults to a fresh memory one. */
export interface TestContextInit<M, S> {
  collection?: Collection;
  /**
   * The other resources a hook reaches (`ctx.collectionOf()`, relations): they are mounted with
   * this one on `store` (a fresh memory store by default), as an API would.
   */
  // biome-ignore lint/suspicious/noExplicitAny: resources of any model and state
  resources?: readonly Resource<any, any>[];
  store?: Store;
  id?: Id;
  state?: S;
  input?: Partial<M>;
  headers?: Record<string, string>;
  rawQuery?: string;
}

/**
 * A context of one action, as hooks and steps receive it before the first hook ran: for unit
 * tests of your own hooks and steps. Unless given one, its collection is a fresh memory
 * collection of the resource's schema.
 *
 * @example
 * ```ts
 * const ctx = createTestContext(books, 'create', { state: { user: { id: 7 } }, input: { name: 'Dune' } });
 * await requireUser(ctx);
 * ```
 */
export function createTestContext<A extends ActionName, M, S>(
  resource: Resource<M, S>,
  action: A,
  init: TestContextInit<M, S> = {},
): ContextOf<A, M, S> {
  const mounted = init.resources || init.store ? { store: init.store ?? memoryStore(), resources: init.resources } : {};
  const collection =
    init.collection ?? (mounted.store ? undefined : memoryStore().collection(compiledResource(resource).schema));
  return createContext(resource, action, {
    collection,
    ...mounted,
    id: init.id,
    state: init.state,
    input: init.input,
    request: { headers: init.headers ?? {}, rawQuery: init.rawQuery ?? '' },
  });
}
