import type { ResponseStream } from './neutral.js';

/** How an {@link EventStream} bounds what waits for a slow client and keeps an idle connection open. */
export interface EventStreamOptions {
  /** The most characters waiting for the client; past them the stream ends (the client is too slow). */
  readonly bufferLimit: number;
  /** A comment line after this many milliseconds without anything sent. */
  readonly heartbeatMs: number;
  /** Called once, when the stream ends for whatever reason (the client left, `end`, overflow). */
  readonly onEnd: () => void;
}

/**
 * A `text/event-stream` body (Server-Sent Events, WHATWG HTML §9.2) as the core produces it: the
 * adapter pulls each chunk once the client took the previous one, so what waits here is bounded
 * (`bufferLimit`): a client that stops reading is dropped, never allowed to grow the server's
 * memory. An idle stream sends a comment every `heartbeatMs`.
 *
 * @example
 * ```ts
 * const stream = new EventStream({ bufferLimit: 65_536, heartbeatMs: 15_000, onEnd: () => {} });
 * stream.event('1', 'created', '{"issue":{"id":1}}');
 * ```
 */
export class EventStream implements ResponseStream, AsyncIterator<string> {
  private readonly queue: string[] = [];
  private queued = 0;
  private waiting: ((result: IteratorResult<string>) => void) | undefined;
  private closed = false;
  private sent = false;
  private readonly heartbeat: ReturnType<typeof setInterval>;

  constructor(private readonly options: EventStreamOptions) {
    this.heartbeat = setInterval(() => {
      if (!this.sent) this.send(': keep-alive\n\n');
      this.sent = false;
    }, options.heartbeatMs);
    (this.heartbeat as { unref?: () => void }).unref?.();
  }

  /** Whether the stream has ended (nothing more is sent). */
  get ended(): boolean {
    return this.closed;
  }

  /** Sends one event: its id, its name and its data (one line of JSON). */
  event(id: string, name: string, data: string): void {
    this.send(`id: ${id}\nevent: ${name}\ndata: ${data}\n\n`);
  }

  /** Sends raw stream text (a comment, a `retry:` field); ends the stream when the client is too far behind. */
  send(chunk: string): void {
    if (this.closed) return;
    this.sent = true;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting({ value: chunk, done: false });
      return;
    }
    this.queue.push(chunk);
    this.queued += chunk.length;
    if (this.queued > this.options.bufferLimit) this.end(false);
  }

  /** Ends the stream: what waits is still sent (`drain`), or dropped. */
  end(drain = true): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    if (!drain) {
      this.queue.length = 0;
      this.queued = 0;
    }
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.({ value: undefined, done: true });
    this.options.onEnd();
  }

  next(): Promise<IteratorResult<string>> {
    const chunk = this.queue.shift();
    if (chunk !== undefined) {
      this.queued -= chunk.length;
      return Promise.resolve({ value: chunk, done: false });
    }
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /** The client went away: the stream ends and drops what waits. */
  return(): Promise<IteratorResult<string>> {
    this.end(false);
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<string> {
    return this;
  }
}
