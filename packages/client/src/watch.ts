import type { IdOfResource } from './include.js';
import { indexQueryString, type RawIndexParams } from './query-string.js';
import type { ResourceFilter } from './query-types.js';
import type { CallOptions, ResourceLike } from './types.js';
import { type Watch, type WatchEvent, type WatchOptions, watchStream } from './watch-stream.js';

// Live events (CONTRACT part 4): `GET /<plural>/events` read with `fetch` rather than
// `EventSource`, which cannot send an `Authorization` header. Reconnects as `EventSource` does
// (after the server's `retry`, sending `Last-Event-ID`), with a bounded backoff and jitter.

/**
 * What a watch listens to: the index's `filter` (an update is sent when the record matches it
 * before or after the change), `q` (a resource declaring `search`) and `archived`.
 *
 * @example
 * ```ts
 * const params: WatchParams<typeof issues> = { filter: { status: ['open', 'in_progress'] }, q: 'login' };
 * ```
 */
export interface WatchParams<R extends ResourceLike> {
  filter?: ResourceFilter<R>;
  /** Search words, sent as `q`: only the records the index's search keeps. */
  q?: string;
  /** `true`: changes of archived records too (a resource that archives). */
  archived?: boolean;
}

/**
 * `watch` of a client of resource R with records T: `onEvent` is called with each event, in
 * order, until the watch stops.
 *
 * @example
 * ```ts
 * const watch = issues.watch({ filter: { projectId: 7 } }, (event) => console.log(event.type));
 * ```
 */
export type WatchMethod<R extends ResourceLike, T> = (
  params: WatchParams<R> | undefined,
  onEvent: (event: WatchEvent<T, IdOfResource<R>>) => void,
  options?: WatchOptions,
) => Watch;

/** What {@link watchMethod} needs of its client. */
interface WatchClient {
  /** The URL of the events (`…/issues/events`). */
  readonly url: string;
  /** The key of a record in the events' data (`issue`). */
  readonly name: string;
  /** The client's headers (its own, its token's) with a call's. */
  headersOf(call: CallOptions): Promise<Headers>;
  send(input: string, init: RequestInit): Promise<Response>;
}

/**
 * The `watch` method of a client: each connection is a `GET` of the events' URL with the
 * client's headers, asked again for each reconnection (so a refreshed token is used).
 *
 * @example
 * ```ts
 * const watch = watchMethod<typeof issues, IssueRecord>({ url: `${base}/issues/events`, name: 'issue', headersOf, send });
 * ```
 */
export function watchMethod<R extends ResourceLike, T>(client: WatchClient): WatchMethod<R, T> {
  return (params, onEvent, call = {}) => {
    const query = indexQueryString(params as RawIndexParams | undefined);
    const target = query ? `${client.url}?${query}` : client.url;
    const open = async (extra: Record<string, string>, signal: AbortSignal) => {
      const headers = await client.headersOf(call);
      for (const [key, value] of Object.entries(extra)) headers.set(key, value);
      return client.send(target, { method: 'GET', headers, signal });
    };
    return watchStream({ name: client.name, open }, onEvent, call);
  };
}
