import 'reflect-metadata';
import { createApi, defineResource, memoryStore, type Principal, type ServerSet } from '@resourcery/core';
import { IsInt, IsISO8601, IsOptional, IsString, Length } from 'class-validator';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ResourceError, resourceClient, type Watch, type WatchEvent, type WatchOptions } from '../src/index.js';
import { type StreamingTarget, serveStreaming } from './helpers/streaming-server.js';

// `watch` against the core's `GET /books/events` (a resource declared `live: true`) over real
// HTTP: typed events, the filters, reconnection with Last-Event-ID after the server ends the
// stream, reset, the token asked per connection, 503 retried, 401 and 406 stopping the watch.

class Book {
  @IsString() @Length(1, 100) name!: string;
  @IsString() author!: string;
  @IsOptional() @IsInt() year?: number | null;
  @IsOptional() @IsISO8601() archivedAt?: ServerSet<string> | null;
}
const books = defineResource({ name: 'book', model: Book, live: true, archive: 'archivedAt', search: ['name'] });
const TOKEN = 'let-me-in';
const authenticate = (request: { headers: Record<string, string | undefined> }): Principal | undefined =>
  request.headers.authorization === `Bearer ${TOKEN}` ? ({ sub: 1 } as Principal) : undefined;

let target: StreamingTarget;
beforeAll(async () => {
  // The 503s of a full server are expected here; anything else is logged.
  const logError = (error: unknown, { status }: { status: number }) => status !== 503 && console.error(error);
  const api = createApi({ resources: [books], store: memoryStore(), authenticate, logError, live: { maxStreams: 2 } });
  target = await serveStreaming(api);
});
afterAll(() => target.close());
// Every test closes its watches: the server sees each stream end.
afterEach(() => expect.poll(() => target.openStreams()).toBe(0));

const client = (token: string | (() => string) = TOKEN, fetch?: typeof globalThis.fetch) =>
  resourceClient<typeof books>({ baseUrl: target.baseUrl, name: 'book', token, ...(fetch ? { fetch } : {}) });
type BookEvent = WatchEvent<Awaited<ReturnType<ReturnType<typeof client>['show']>>, number>;

/** A watch whose events and errors are kept, with a promise of its first connection. */
function watching(
  params: Parameters<ReturnType<typeof client>['watch']>[0],
  options: WatchOptions = {},
  books = client(),
) {
  const events: BookEvent[] = [];
  const errors: unknown[] = [];
  let opened = 0;
  let onOpen: () => void = () => {};
  const open = new Promise<void>((resolve) => {
    onOpen = resolve;
  });
  const watch: Watch = books.watch(params, (event) => events.push(event), {
    ...options,
    onOpen: () => {
      opened++;
      onOpen();
    },
    onError: (error) => errors.push(error),
  });
  return { watch, events, errors, open, opened: () => opened };
}

describe('resourceClient().watch', () => {
  it('calls onEvent with typed created, updated and destroyed events that the filter keeps', async () => {
    const { watch, events, open } = watching({ filter: { author: 'Frank Herbert' } });
    await open;
    const books = client();
    const dune = await books.create({ name: 'Dune', author: 'Frank Herbert' });
    await books.create({ name: 'Emma', author: 'Jane Austen' }); // not the filter's
    await books.update(dune.id, { year: 1965 });
    await books.destroy(dune.id); // an archive: sent as destroyed
    await expect.poll(() => events.length).toBe(3);
    expect(events.map((event) => event.type)).toEqual(['created', 'updated', 'destroyed']);
    const [created, updated, destroyed] = events;
    expect(created).toEqual({ type: 'created', record: { ...dune }, eventId: expect.any(String) });
    expect(updated?.type === 'updated' && updated.record).toEqual({ ...dune, year: 1965 });
    expect(destroyed).toEqual({ type: 'destroyed', id: dune.id, eventId: expect.any(String) });
    expect(watch.lastEventId).toBe(destroyed?.type === 'destroyed' ? destroyed.eventId : 'none');
    expect(target.eventRequests.at(-1)?.accept).toBe('text/event-stream');
    watch.close();
    await watch.done;
    await expect.poll(() => target.openStreams()).toBe(0);
  });

  it('sends q and archived as the index does', async () => {
    const { watch, events, open } = watching({ q: 'Messiah', archived: true });
    await open;
    const books = client();
    await books.create({ name: 'Children of Dune', author: 'Frank Herbert' });
    const messiah = await books.create({ name: 'Dune Messiah', author: 'Frank Herbert' });
    await books.destroy(messiah.id);
    // Archived and still watched with archived=true: an update, not a destroyed.
    await expect.poll(() => events.map((event) => event.type)).toEqual(['created', 'updated']);
    expect(events[0]?.type === 'created' && events[0].record.name).toBe('Dune Messiah');
    watch.close();
    await watch.done;
  });

  it('reconnects with Last-Event-ID after the server ends the stream, and misses nothing', async () => {
    const token = vi.fn(() => TOKEN);
    const { watch, events, open, opened } = watching({}, { maxDelay: 50 }, client(token));
    await open;
    const books = client();
    const first = await books.create({ name: 'Before', author: 'A' });
    await expect.poll(() => events.length).toBe(1);
    const lastId = watch.lastEventId;
    const requests = target.eventRequests.length;
    target.dropStreams();
    const second = await books.create({ name: 'While away', author: 'A' }); // replayed on reconnecting
    await expect.poll(() => opened()).toBe(2);
    const third = await books.create({ name: 'After', author: 'A' });
    await expect.poll(() => events.length).toBe(3);
    expect(events.map((event) => event.type === 'created' && event.record.id)).toEqual([first.id, second.id, third.id]);
    expect(target.eventRequests[requests]?.['last-event-id']).toBe(lastId);
    expect(token).toHaveBeenCalledTimes(2); // asked again for the reconnection
    watch.close();
    await watch.done;
  });

  it('starts with a reset when the id to resume from is no longer known', async () => {
    const { watch, events } = watching({}, { lastEventId: 'another-log-7' });
    await expect.poll(() => events.length).toBe(1);
    expect(events[0]).toEqual({ type: 'reset', eventId: expect.any(String) });
    expect(watch.lastEventId).toBe(events[0]?.type === 'reset' ? events[0].eventId : 'none');
    watch.close();
    await watch.done;
  });

  it('retries a 503 (too many streams) and connects once a stream is free', async () => {
    const a = watching({});
    const b = watching({});
    await Promise.all([a.open, b.open]);
    const c = watching({}, { maxDelay: 20 });
    await expect
      .poll(() => c.errors.some((error) => error instanceof ResourceError && error.status === 503))
      .toBe(true);
    expect(c.opened()).toBe(0);
    a.watch.close();
    await c.open;
    for (const { watch } of [a, b, c]) watch.close();
    await Promise.all([a.watch.done, b.watch.done, c.watch.done]);
  });

  it('stops on a 401 with the ResourceError, in done and onError', async () => {
    const { watch, errors } = watching({}, {}, client('wrong'));
    const error = await watch.done.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ResourceError);
    expect((error as ResourceError).status).toBe(401);
    expect((error as ResourceError).code).toBe('unauthorized');
    expect(errors).toEqual([error]);
  });

  it('stops on a 406 when something on the way drops the Accept header', async () => {
    const dropAccept: typeof globalThis.fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('accept', 'application/json');
      return globalThis.fetch(input, { ...init, headers });
    };
    const { watch } = watching({}, {}, client(TOKEN, dropAccept));
    const error = await watch.done.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResourceError);
    expect((error as ResourceError).status).toBe(406);
    expect((error as ResourceError).code).toBe('not_acceptable');
  });

  it('stops when its signal aborts, as close() does', async () => {
    const controller = new AbortController();
    const { watch, open } = watching({}, { signal: controller.signal });
    await open;
    expect(target.openStreams()).toBe(1);
    controller.abort();
    await watch.done;
    await expect.poll(() => target.openStreams()).toBe(0);
  });
});
