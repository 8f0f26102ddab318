// The live events example of docs/client.md against a live variant of book.ts's books, over
// real HTTP: the shelf loads, follows creates, updates and destroys, and stops on close.
import 'reflect-metadata';
import { createApi, defineResource, memoryStore } from '@resourcery/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StreamingTarget, serveStreaming } from '../../packages/client/test/helpers/streaming-server.js';
import { Book } from './book.js';
import { watchShelf } from './client-watch.js';

const books = defineResource({ name: 'book', model: Book, live: true });
let target: StreamingTarget;
beforeAll(async () => {
  target = await serveStreaming(createApi({ resources: [books], store: memoryStore() }));
});
afterAll(() => target.close());

const send = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${target.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.status === 204 ? undefined : ((await response.json()) as { book: { id: number } }).book;
};

describe('watchShelf (docs/client.md, "Live events")', () => {
  it('loads the shelf once the stream is open, then follows each change of the filtered books', async () => {
    const dune = await send('POST', '/books', { name: 'Dune', author: 'Frank Herbert' });
    const shelf = new Map();
    let changes = 0;
    const watch = watchShelf(
      target.baseUrl,
      async () => undefined,
      shelf,
      () => changes++,
    );
    await expect.poll(() => [...shelf.keys()]).toEqual([dune?.id]);
    const messiah = await send('POST', '/books', { name: 'Dune Messiah', author: 'Frank Herbert' });
    await send('POST', '/books', { name: 'Emma', author: 'Jane Austen' }); // not the filter's
    await send('PATCH', `/books/${dune?.id}`, { name: 'Dune (1965)' });
    await send('DELETE', `/books/${messiah?.id}`);
    await expect.poll(() => changes).toBe(4); // the load, a create, an update and a destroy
    expect([...shelf.values()]).toEqual([{ id: dune?.id, name: 'Dune (1965)', author: 'Frank Herbert' }]);
    watch.close();
    await watch.done;
    await expect.poll(() => target.openStreams()).toBe(0);
  });
});
