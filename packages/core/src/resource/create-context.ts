import type { ActionName } from '../contract/actions.js';
import type { Id } from '../schema/types.js';
import type { Collection, Store } from '../store/store.js';
import { Context } from './context.js';
import type { ContextOf, ContextRequest } from './context-types.js';
import { compiledResource } from './define-resource.js';
import { mountResources } from './link.js';
import type { Resource } from './options.js';

/** What {@link createContext} can preset; everything else starts as a request would. */
export interface ContextInit<M, S> {
  /** The collection the steps use (a store's `collection(schema)`); ignored with `store`. */
  collection?: Collection;
  /**
   * A store holding this resource and `resources`, as an API would mount them: the context then
   * has `ctx.collectionOf()` for them, `ctx.transaction()` spanning them, and relations.
   */
  store?: Store;
  /** The other resources of the API (those this one's relations and hooks reach), with `store`. */
  // biome-ignore lint/suspicious/noExplicitAny: resources of any model and state
  resources?: readonly Resource<any, any>[];
  id?: Id;
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
  const compiled = compiledResource(resource);
  const { store } = init;
  const api = store
    ? mountResources(
        [resource, ...(init.resources ?? []).filter((other) => other !== resource)].map((each) =>
          compiledResource(each as Resource),
        ),
        () => store,
      )
    : undefined;
  const self = api?.of(resource as Resource);
  const collection = self?.collection ?? init.collection;
  if (!collection) throw new TypeError('createContext: give a collection or a store');
  const ctx = new Context(
    compiled,
    action,
    request,
    init.id ?? 0,
    collection,
    (init.state ?? {}) as Record<string, unknown>,
    self && api ? { self, api } : undefined,
  );
  if (init.input) ctx.input = init.input as Record<string, unknown>;
  return ctx as unknown as ContextOf<A, M, S>;
}
