import type { ActionName } from '../contract/actions.js';
import type { Collection } from '../store/store.js';
import { Context } from './context.js';
import type { ContextOf, ContextRequest } from './context-types.js';
import { compiledResource } from './define-resource.js';
import type { Resource } from './options.js';

/** What {@link createContext} can preset; everything else starts as a request would. */
export interface ContextInit<M, S> {
  /** The collection the steps use (a store's `collection(schema)`). */
  collection: Collection;
  id?: number;
  state?: S;
  input?: Partial<M>;
  request?: Partial<ContextRequest>;
}

/**
 * A context of one action of a resource, as the lifecycle builds it before the first hook: for
 * testing hooks and steps without HTTP (`@resourcery/testing` wraps it).
 *
 * @example
 * ```ts
 * const ctx = createContext(books, 'update', { id: 7, collection: memoryStore().collection(schema) });
 * await myHook(ctx);
 * ```
 */
export function createContext<A extends ActionName, M, S>(
  resource: Resource<M, S>,
  action: A,
  init: ContextInit<M, S>,
): ContextOf<A, M, S> {
  const request: ContextRequest = {
    method: 'GET',
    path: `/${resource.path}`,
    basePath: '',
    rawQuery: '',
    headers: {},
    native: undefined,
    ...init.request,
  };
  const ctx = new Context(
    compiledResource(resource),
    action,
    request,
    init.id ?? 0,
    init.collection,
    (init.state ?? {}) as Record<string, unknown>,
  );
  if (init.input) ctx.input = init.input as Record<string, unknown>;
  return ctx as unknown as ContextOf<A, M, S>;
}
