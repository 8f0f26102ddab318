import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpError, memoryStore } from '@resourcery/core';
import { resourcery } from '@resourcery/express';
import { type SqlStoreProvider, sqlStore } from '@resourcery/sql';
import { bookResource, serveHttp } from '@resourcery/testing';
import Database from 'better-sqlite3';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';
import { closedPort, TcpProxy } from './helpers/tcp-proxy.js';

/** Serves books on `store` and, beside them, "memos" on a memory store that never fails. */
async function serve(store: SqlStoreProvider) {
  const logged: unknown[] = [];
  const app = express().use(
    '/api',
    resourcery({
      resources: [bookResource(), bookResource({ plural: 'memos', store: memoryStore() })],
      store,
      logError: (error) => logged.push(error),
    }),
  );
  const target = await serveHttp(app);
  const send = (method: string, path: string, body?: unknown) =>
    fetch(`${target.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return { send, logged, close: () => target.close().finally(() => store.close()) };
}

const book = { name: 'Dune', author: 'Herbert' };

/** A 503 problem that tells nothing about the database. */
async function expectUnavailable(response: Response): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBe(503);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.headers.get('retry-after')).toBe('1');
  expect(JSON.parse(text)).toMatchObject({ status: 503, title: 'Service Unavailable', code: 'service_unavailable' });
  expect(text).not.toMatch(/ECONN|127\.0\.0\.1|select|insert|sqlite|postgres|mysql|maria|busy|locked|\.ts\b/i);
}

describe('a database that cannot be reached', () => {
  for (const scheme of ['postgres', 'mysql'] as const) {
    it(`${scheme}: answers every request 503 problem+json and logs the cause`, async () => {
      const url = `${scheme}://root@127.0.0.1:${await closedPort()}/test`;
      const api = await serve(sqlStore(url, { connectTimeoutMs: 2000 }));
      try {
        await expectUnavailable(await api.send('GET', '/books'));
        await expectUnavailable(await api.send('POST', '/books', book));
        await expectUnavailable(await api.send('GET', '/books/1'));
        await expectUnavailable(await api.send('GET', '/books'));
        expect(api.logged.length).toBeGreaterThanOrEqual(4);
        // The server log gets the driver's error as the cause; the client only the generic problem.
        for (const error of api.logged) {
          expect(error).toBeInstanceOf(HttpError);
          expect((error as HttpError).status).toBe(503);
          expect(String((error as HttpError).cause)).toMatch(/ECONNREFUSED/);
        }
      } finally {
        await api.close();
      }
    });
  }
});

describe('SQLite locked by another process', () => {
  const folder = mkdtempSync(join(tmpdir(), 'resourcery-lock-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('answers 503 to writes while locked, then recovers by itself', async () => {
    const file = join(folder, 'locked.sqlite');
    const api = await serve(sqlStore(`sqlite:${file}`, { busyTimeoutMs: 100 }));
    const other = new Database(file);
    try {
      expect((await api.send('POST', '/books', book)).status).toBe(200);
      other.exec('BEGIN EXCLUSIVE');
      await expectUnavailable(await api.send('POST', '/books', book));
      await expectUnavailable(await api.send('PATCH', '/books/1', { name: 'Dune II' }));
      expect((await api.send('GET', '/books/1')).status).toBe(200); // WAL: readers do not wait
      other.exec('ROLLBACK');
      const created = await api.send('POST', '/books', book);
      expect(created.status).toBe(200);
      expect((await created.json()).book.id).toBe(2);
    } finally {
      other.close();
      await api.close();
    }
  });
});

for (const name of ['postgres', 'mariadb'] as const) {
  const { label, url } = SERVERS[name];
  describe(`${label} going down and coming back`, () => {
    if (!serverAvailable(name)) return;

    it('answers 503 while it is down and recovers by itself, without a restart', async () => {
      const server = new URL(url);
      const proxy = new TcpProxy(server.hostname, Number(server.port));
      const port = await closedPort();
      const via = new URL(url);
      via.hostname = '127.0.0.1';
      via.port = String(port);
      const tablePrefix = `down${Math.random().toString(36).slice(2, 8)}_`;
      const store = droppingTables(sqlStore(via.href, { tablePrefix, connectTimeoutMs: 2000 }), tablePrefix);
      const api = await serve(store);
      try {
        // Down from the start: even creating the tables waits for the database.
        await expectUnavailable(await api.send('GET', '/books'));
        await proxy.start(port);
        const created = await api.send('POST', '/books', book);
        expect(created.status).toBe(200);
        const { id } = (await created.json()).book;
        expect((await api.send('GET', `/books/${id}`)).status).toBe(200);

        // Down while requests are in flight and connections are open in the pool.
        const inFlight = Array.from({ length: 20 }, () => api.send('GET', `/books/${id}`));
        await proxy.stop();
        for (const response of await Promise.all(inFlight)) {
          if (response.status !== 200) await expectUnavailable(response);
        }
        await expectUnavailable(await api.send('GET', `/books/${id}`));
        await expectUnavailable(await api.send('POST', '/books', book));
        expect((await api.send('GET', '/memos')).status).toBe(200);

        await proxy.start(port);
        const back = await api.send('GET', `/books/${id}`);
        expect(back.status).toBe(200);
        expect((await back.json()).book).toEqual({ id, ...book });
        expect((await api.send('POST', '/books', book)).status).toBe(200);
      } finally {
        await api.close();
        await proxy.stop();
      }
    });
  });
}
