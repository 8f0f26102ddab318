import type { ActionName } from '../contract/actions.js';
import type { Collection } from '../store/store.js';
import type { MountedResource } from './link.js';

/**
 * The collection reading from the primary database, when its store sends reads outside a
 * transaction to read replicas (`collection.primary()`); the collection itself otherwise.
 *
 * @example
 * ```ts
 * await primaryOf(books).find(7, []); // sees a write committed a moment ago
 * ```
 */
export function primaryOf(collection: Collection): Collection {
  return collection.primary?.() ?? collection;
}

/**
 * Whether a request's store calls read from the primary: in write actions, so that a request that
 * wrote reads its own writes (its find, reference checks, `include`, its hooks' reads through `ctx`).
 *
 * @example
 * ```ts
 * readsPrimary('update'); // true; readsPrimary('index'): false
 * ```
 */
export function readsPrimary(action: ActionName): boolean {
  return action === 'create' || action === 'update' || action === 'destroy';
}

/**
 * The collection of a mounted resource outside any transaction, unwrapped: from the primary
 * when the request's context reads there ({@link readsPrimary}).
 *
 * @example
 * ```ts
 * const collection = storeCollection(ctx, ctx.mounted.self);
 * ```
 */
export function storeCollection(ctx: { readonly readsPrimary: boolean }, target: MountedResource): Collection {
  return ctx.readsPrimary ? primaryOf(target.collection) : target.collection;
}
