import { EventStreamParser, type StreamMessage } from './event-stream-parser.js';
import { ResourceError } from './resource-error.js';
import type { CallOptions } from './types.js';

// Reading a live events stream with `fetch`, and reconnecting as `EventSource` does.

/**
 * The event types a live stream sends, as the server names them.
 *
 * @example
 * ```ts
 * WATCH_EVENT_TYPES.includes('created'); // true
 * ```
 */
export const WATCH_EVENT_TYPES = Object.freeze(['created', 'updated', 'destroyed', 'reset'] as const);

/**
 * One event of {@link ResourceClient.watch}: a record created or updated (`record` as a `show`
 * answers it for you), a record destroyed or archived (only its `id`), or `reset`: the stream
 * could not resume where it stopped (events were missed), so reload what you show, then carry on.
 * `eventId` is the server's opaque event id (what a reconnection sends as `Last-Event-ID`).
 *
 * @example
 * ```ts
 * const apply = (event: WatchEvent<IssueRecord, number>) => {
 *   if (event.type === 'destroyed') rows.delete(event.id);
 *   else if (event.type === 'reset') void reload();
 *   else rows.set(event.record.id, event.record);
 * };
 * ```
 */
export type WatchEvent<T, Id = number> =
  | { type: 'created' | 'updated'; record: T; eventId: string }
  | { type: 'destroyed'; id: Id; eventId: string }
  | { type: 'reset'; eventId: string };

/**
 * Options of a watch. `signal` ends it as `close()` does; `headers` are sent with every
 * connection (with the client's own headers and token, asked again for each reconnection).
 *
 * @example
 * ```ts
 * const options: WatchOptions = { onOpen: () => setOnline(true), onError: (error) => setOnline(false) };
 * ```
 */
export interface WatchOptions extends CallOptions {
  /** Resume after this event id (a `WatchEvent`'s `eventId` you kept): sent as the first `Last-Event-ID`. */
  lastEventId?: string;
  /** Called each time a connection is open (the stream's `200`), the first and every reconnection. */
  onOpen?: () => void;
  /**
   * Called with every failure: a network error, a server error or the end of a stream before a
   * reconnection, a data line that is not the JSON expected, an error `onEvent` threw, and the
   * `ResourceError` (4xx) that stops the watch. Without it, an error thrown by `onEvent` is
   * rethrown asynchronously, as a listener's error is.
   */
  onError?: (error: unknown) => void;
  /** The longest wait between two connections, in milliseconds (default 30 000). */
  maxDelay?: number;
}

/**
 * A running watch.
 *
 * @example
 * ```ts
 * const watch = issues.watch({}, render);
 * watch.close();
 * await watch.done; // resolved: closed by you
 * ```
 */
export interface Watch {
  /** Stops the watch: the connection is closed and no reconnection follows. */
  close(): void;
  /**
   * Settles when the watch stops: resolved after `close()` (or the signal's abort), rejected with
   * the `ResourceError` of an answer that stops it (a 4xx other than 408 and 429, such as 401
   * `unauthorized`, 403, 406 `not_acceptable`; or a `200` that is not `text/event-stream`).
   */
  readonly done: Promise<void>;
  /** The id of the last event received (what the next connection sends as `Last-Event-ID`). */
  readonly lastEventId: string | undefined;
}

/** How {@link watchStream} connects: `open` sends the `GET` with the client's headers and these. */
export interface WatchTarget {
  /** The key of a record in the events' data (`issue`). */
  readonly name: string;
  open(headers: Record<string, string>, signal: AbortSignal): Promise<Response>;
}

/** An answer worth another try: a timeout, too many requests, a server error. */
const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * Runs one watch: connects, reads the stream into events, and reconnects until closed or refused.
 *
 * @example
 * ```ts
 * const watch = watchStream({ name: 'issue', open: (headers, signal) => fetch(url, { headers, signal }) }, onEvent);
 * ```
 */
export function watchStream<T, Id>(
  target: WatchTarget,
  onEvent: (event: WatchEvent<T, Id>) => void,
  options: WatchOptions = {},
): Watch {
  const controller = new AbortController();
  const stopped = controller.signal;
  const { signal } = options;
  const abort = () => controller.abort();
  if (signal?.aborted) abort();
  else signal?.addEventListener('abort', abort, { once: true });
  const fail = (error: unknown) => options.onError?.(error);
  let retry = 1000;
  let failures = 0;
  const parser = new EventStreamParser(
    {
      message: (message) => deliver(message),
      retry: (milliseconds) => {
        retry = milliseconds;
      },
    },
    options.lastEventId,
  );

  function deliver({ event, data, lastEventId: eventId }: StreamMessage): void {
    if (!(WATCH_EVENT_TYPES as readonly string[]).includes(event)) return; // a type of a later server
    let outcome: WatchEvent<T, Id>;
    try {
      outcome = eventOf(event as WatchEvent<T, Id>['type'], data, eventId, target.name);
    } catch (error) {
      fail(error);
      return;
    }
    try {
      onEvent(outcome);
    } catch (error) {
      if (options.onError) options.onError(error);
      else
        queueMicrotask(() => {
          throw error;
        });
    }
  }

  async function connect(): Promise<number | undefined> {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (parser.lastId !== '') headers['last-event-id'] = parser.lastId;
    const response = await target.open(headers, stopped);
    if (!response.ok) {
      const error = await ResourceError.fromResponse(response);
      if (!retryable(response.status)) throw error;
      fail(error);
      const after = Number(response.headers.get('retry-after'));
      return Number.isFinite(after) && after > 0 ? after * 1000 : undefined;
    }
    const type = response.headers.get('content-type') ?? '';
    if (!/^text\/event-stream\s*(;|$)/i.test(type) || !response.body) {
      await response.body?.cancel();
      throw ResourceError.unexpected(response, `Expected text/event-stream, got "${type}"`);
    }
    failures = 0;
    options.onOpen?.();
    parser.reset();
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    parser.feed(decoder.decode());
    fail(new Error('The server ended the event stream; reconnecting'));
    return undefined;
  }

  async function run(): Promise<void> {
    while (!stopped.aborted) {
      let wait: number | undefined;
      try {
        wait = await connect();
      } catch (error) {
        if (stopped.aborted) break;
        if (error instanceof ResourceError && !retryable(error.status)) {
          options.onError?.(error);
          throw error;
        }
        fail(error);
      }
      // The server's `retry`, doubled per failure in a row, at most `maxDelay`; then 50 to 100 % of it.
      const backoff = Math.min(options.maxDelay ?? 30_000, Math.max(wait ?? 0, retry * 2 ** failures));
      failures = Math.min(failures + 1, 16);
      await pause(backoff * (0.5 + Math.random() / 2), stopped);
    }
  }

  const done = run().finally(() => signal?.removeEventListener('abort', abort));
  done.catch(() => {}); // awaiting `done` still sees the rejection; not awaiting it is no unhandled one
  return {
    close: () => controller.abort(),
    done,
    get lastEventId() {
      return parser.lastId === '' ? undefined : parser.lastId;
    },
  };
}

/** The event a message makes: its data is `{"<name>": record}` (`{"<name>": {"id": ...}}` for destroyed, `{}` for reset). */
function eventOf<T, Id>(type: WatchEvent<T, Id>['type'], data: string, eventId: string, name: string) {
  if (type === 'reset') return { type, eventId };
  const body: unknown = JSON.parse(data);
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  if (typeof record !== 'object' || record === null) {
    throw new TypeError(`A ${type} event's data has no "${name}" record: ${data.slice(0, 200)}`);
  }
  if (type === 'destroyed') return { type, id: (record as { id: Id }).id, eventId };
  return { type, record: record as T, eventId };
}

/** Waits `milliseconds`, or until `signal` aborts. */
function pause(milliseconds: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, milliseconds);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
