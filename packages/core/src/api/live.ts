import { credentialsExpiry } from '../http/bearer-jwt.js';
import type { EventStream } from '../http/event-stream.js';
import type { ErrorLogger } from '../http/problem.js';
import type { LiveEvents } from '../resource/events.js';
import type { MountedResource } from '../resource/link.js';
import { LiveHub } from '../resource/live-hub.js';
import type { Collection, Store } from '../store/store.js';
import type { LiveOptions } from './api-options.js';

/**
 * The live events of an API whose resources include a live one (else `undefined`): one hub per
 * store (one reader of its change log for every stream of this process), the collections that
 * relation conditions ask, the limits, and the open streams, which `close` ends.
 */
export function liveEvents(
  options: LiveOptions | undefined,
  all: readonly MountedResource[],
  logError: ErrorLogger,
): (LiveEvents & { close(): void }) | undefined {
  if (!all.some((self) => self.compiled.enabled.has('events'))) return undefined;
  const hubs = new Map<Store, LiveHub>();
  const named = new Map<Store, Map<string, Collection>>();
  for (const self of all) {
    let collections = named.get(self.store);
    if (!collections) {
      collections = new Map();
      named.set(self.store, collections);
    }
    collections.set(self.schema.name, self.collection);
    for (const join of self.joins) collections.set(join.name, self.store.collection(join));
  }
  const open = new Set<EventStream>();
  return {
    hubOf(store) {
      let hub = hubs.get(store);
      if (!hub) {
        hub = new LiveHub((store.changes as () => ReturnType<NonNullable<Store['changes']>>)());
        hubs.set(store, hub);
      }
      return hub;
    },
    collectionNamed: (store, name) => named.get(store)?.get(name),
    expiresAt: (ctx, request) =>
      options?.expiresAt ? options.expiresAt(ctx.principal, request) : credentialsExpiry(request),
    maxStreams: options?.maxStreams ?? 5_000,
    heartbeatMs: options?.heartbeatMs ?? 15_000,
    bufferLimit: options?.bufferLimit ?? 65_536,
    open,
    report: (error, ctx) => logError(error, { method: 'GET', path: ctx.request.path, status: 500 }),
    close() {
      for (const stream of [...open]) stream.end();
      for (const hub of hubs.values()) hub.close();
    },
  };
}
