import type { Api } from '@resourcery/core';
import type { HandleOptions, NeutralRequest, NeutralResponse } from '@resourcery/core/adapter';

type Settle = (result: IteratorResult<string>) => void;

/**
 * A streamed body that a test feeds: what a live events producer is to an adapter. `push` adds
 * a chunk, `end` ends the iteration, `fail` makes the next pull throw. It counts the adapter's
 * pulls (`next()` calls) and tells when one comes (`pulled`) and when the adapter stops it
 * (`stopped`, its `return()`), so that a test waits on events, never on time.
 *
 * @example
 * ```ts
 * const stream = new PushStream();
 * const response = { status: 200, headers: { 'Content-Type': 'text/event-stream' }, stream };
 * stream.push('data: 1\n\n');
 * stream.end();
 * ```
 */
export class PushStream implements AsyncIterableIterator<string> {
  /** How many times the adapter asked for a chunk. */
  pulls = 0;
  /** Whether the adapter called `return()` (the client went away, the server shut down). */
  returned = false;
  private readonly queue: string[] = [];
  private ended = false;
  private failure: { error: unknown } | undefined;
  private waiting: { resolve: Settle; reject: (error: unknown) => void } | undefined;
  private readonly listeners = new Set<() => void>();

  /** Adds a chunk: the pull waiting for one takes it, else the next pull. */
  push(chunk: string): void {
    if (this.waiting) this.settle({ value: chunk, done: false });
    else this.queue.push(chunk);
  }

  /** Ends the iteration once the chunks pushed before are taken. */
  end(): void {
    this.ended = true;
    if (this.waiting && this.queue.length === 0) this.settle({ value: undefined, done: true });
  }

  /** Makes the next pull (or the one waiting) throw `error`. */
  fail(error: unknown): void {
    this.failure = { error };
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }

  /** Resolves once the adapter asked for chunks `count` times in all. */
  pulled(count: number): Promise<void> {
    return this.when(() => this.pulls >= count);
  }

  /** Resolves once the adapter called `return()`. */
  stopped(): Promise<void> {
    return this.when(() => this.returned);
  }

  /** Resolves once a pull waits for a chunk (none is queued): the adapter asks for more. */
  asking(): Promise<void> {
    return this.when(() => this.waiting !== undefined);
  }

  next(): Promise<IteratorResult<string>> {
    this.pulls += 1;
    const chunk = this.queue.shift();
    let result: Promise<IteratorResult<string>>;
    if (chunk !== undefined) result = Promise.resolve({ value: chunk, done: false });
    else if (this.failure) result = Promise.reject(this.failure.error);
    else if (this.ended || this.returned) result = Promise.resolve({ value: undefined, done: true });
    else {
      result = new Promise((resolve, reject) => {
        this.waiting = { resolve, reject };
      });
    }
    this.notify();
    return result;
  }

  /** Stops the stream at once: a pull waiting ends. */
  return(): Promise<IteratorResult<string>> {
    this.returned = true;
    this.queue.length = 0;
    if (this.waiting) this.settle({ value: undefined, done: true });
    this.notify();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private settle(result: IteratorResult<string>): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve(result);
  }

  private when(condition: () => boolean): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!condition()) return;
        this.listeners.delete(check);
        resolve();
      };
      this.listeners.add(check);
    });
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/**
 * An API that answers `GET <path>` (below the mount point) with a new {@link PushStream} as a
 * `text/event-stream` body, and every other request as `api` does: for testing how an adapter
 * writes a stream without a live resource. `opened()` answers the next stream opened.
 *
 * @example
 * ```ts
 * const streaming = streamingApi(createApi({ resources: [books], store: memoryStore() }));
 * createServer(createListener({ resources: [books], store }, streaming.api)).listen(0);
 * const stream = await streaming.opened(); // once a client GETs /streamed
 * ```
 */
export function streamingApi(api: Api, path = '/streamed'): { api: Api; opened(): Promise<PushStream> } {
  const ready: PushStream[] = [];
  const waiting: ((stream: PushStream) => void)[] = [];
  const handle = (request: NeutralRequest, options?: HandleOptions): Promise<NeutralResponse> => {
    if (request.path !== path || request.method !== 'GET') return api.handle(request, options);
    const stream = new PushStream();
    const take = waiting.shift();
    if (take) take(stream);
    else ready.push(stream);
    const headers = { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' };
    return Promise.resolve({ status: 200, headers, stream });
  };
  const opened = (): Promise<PushStream> => {
    const stream = ready.shift();
    return stream ? Promise.resolve(stream) : new Promise((resolve) => waiting.push(resolve));
  };
  // The other members (ready, close, health...) are the API's own.
  return { api: Object.assign(Object.create(api) as Api, { handle }), opened };
}
