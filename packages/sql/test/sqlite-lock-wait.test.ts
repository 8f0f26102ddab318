// A SQLite write that waits for another process's lock must not stop the process: better-sqlite3
// is synchronous, and a busy timeout spent inside it would hold every other request (reads, the
// health checks) for as long as the write waits.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiledResource } from '@resourcery/core/adapter';
import { healthRoutes, resourcery } from '@resourcery/express';
import { sqlStore } from '@resourcery/sql';
import { bookResource, serveHttp } from '@resourcery/testing';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { type HeldLock, lockInAnotherProcess } from './helpers/sqlite-lock.js';

const folder = mkdtempSync(join(tmpdir(), 'resourcery-lock-wait-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const book = { name: 'Dune', author: 'Herbert' };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Books on a SQLite file, with the probes; `writing` resolves when a create is about to write. */
async function serve(file: string, busyTimeoutMs: number) {
  let signal = () => {};
  const writing = new Promise<void>((resolve) => {
    signal = resolve;
  });
  const store = sqlStore(`sqlite:${file}`, { busyTimeoutMs });
  const api = resourcery({
    resources: [bookResource({ hooks: { before: { create: () => signal() } } })],
    store,
    logError: () => {}, // the 503 of the second case is expected
  });
  const app = express()
    .use(healthRoutes(api.api, { timeoutMs: 60_000 }))
    .use('/api', api);
  const target = await serveHttp(app, '');
  const send = (method: string, path: string, body?: unknown) =>
    fetch(`${target.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return { send, writing, close: () => target.close().finally(() => store.close()) };
}

/** Sends a create whose answer is remembered as soon as it comes, and waits until it meets the lock. */
async function waitingCreate(server: Awaited<ReturnType<typeof serve>>) {
  const answer = { settled: false };
  const response = server.send('POST', '/api/books', book).finally(() => {
    answer.settled = true;
  });
  await server.writing;
  await pause(50); // the write has met the lock by now (it then waits much longer than this)
  return { answer, response };
}

describe('SQLite: a write waiting for another process to release its lock', () => {
  it('lets reads and the health checks answer meanwhile, and is stored once the lock is released', async () => {
    const server = await serve(join(folder, 'released.sqlite'), 30_000);
    let lock: HeldLock | undefined;
    try {
      expect((await server.send('POST', '/api/books', book)).status).toBe(200);
      lock = await lockInAnotherProcess(join(folder, 'released.sqlite'));
      const create = await waitingCreate(server);
      expect((await server.send('GET', '/api/books/1')).status).toBe(200);
      expect((await server.send('GET', '/api/books')).status).toBe(200);
      expect((await server.send('GET', '/readyz')).status).toBe(200);
      expect(create.answer.settled, 'the write still waits for the lock').toBe(false);
      await lock.release();
      const created = await create.response;
      expect(created.status).toBe(200);
      expect((await created.json()).book).toEqual({ id: 2, ...book });
      expect((await server.send('GET', '/api/books/2')).status).toBe(200);
    } finally {
      lock?.kill();
      await server.close();
    }
  });

  it('answers 503 with Retry-After once busyTimeoutMs have passed, serving reads until then', async () => {
    const server = await serve(join(folder, 'held.sqlite'), 1500);
    let lock: HeldLock | undefined;
    try {
      expect((await server.send('POST', '/api/books', book)).status).toBe(200);
      lock = await lockInAnotherProcess(join(folder, 'held.sqlite'));
      const create = await waitingCreate(server);
      expect((await server.send('GET', '/api/books/1')).status).toBe(200);
      expect((await server.send('GET', '/readyz')).status).toBe(200);
      expect(create.answer.settled, 'the write still waits for the lock').toBe(false);
      const refused = await create.response;
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      await lock.release();
      expect((await server.send('POST', '/api/books', book)).status).toBe(200);
    } finally {
      lock?.kill();
      await server.close();
    }
  });

  it('a store transaction waits for the lock without holding up reads of the store', async () => {
    const file = join(folder, 'transaction.sqlite');
    const store = sqlStore(`sqlite:${file}`, { busyTimeoutMs: 30_000 });
    const { schema } = compiledResource(bookResource());
    let lock: HeldLock | undefined;
    try {
      await store.init([schema]);
      const books = store.collection(schema);
      await books.create(book);
      lock = await lockInAnotherProcess(file);
      let settled = false;
      const transaction = store
        .transaction(async (tx) => {
          await tx.collection(schema).create({ name: 'Emma', author: 'Austen' });
          return tx.collection(schema).update(1, { name: 'Dune II' }, []);
        })
        .finally(() => {
          settled = true;
        });
      await pause(50);
      const page = await books.list({
        where: [],
        order: [{ field: 'id', direction: 'asc' }],
        limit: 10,
        offset: 0,
        count: true,
      });
      expect(page.total).toBe(1);
      expect(settled, 'the transaction still waits for the lock').toBe(false);
      await lock.release();
      expect(await transaction).toEqual({ id: 1, ...book, name: 'Dune II' });
      expect((await books.find(2, []))?.name).toBe('Emma');
    } finally {
      lock?.kill();
      await store.close();
    }
  });
});
