// A table or a row locked by another connection must not hold requests for longer than the
// documented bounds: a connection of the pool is waited for at most `connectTimeoutMs`, a lock at
// most `lockTimeoutMs`, and the request then answers 503 problem+json with Retry-After.
import { resourcery } from '@resourcery/express';
import { type SqlStoreOptions, type SqlStoreProvider, sqlStore } from '@resourcery/sql';
import { bookResource, serveHttp } from '@resourcery/testing';
import express from 'express';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';

const book = { name: 'Dune', author: 'Herbert' };

async function serve(store: SqlStoreProvider) {
  const app = express().use('/api', resourcery({ resources: [bookResource()], store, logError: () => {} }));
  const target = await serveHttp(app);
  const send = (method: string, path: string, body?: unknown) =>
    fetch(`${target.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return { send, close: () => target.close().finally(() => store.close()) };
}

async function expectUnavailable(response: Response): Promise<void> {
  const text = await response.text();
  expect(response.status, text).toBe(503);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.headers.get('retry-after')).toBe('1');
  expect(text).not.toMatch(/lock|timeout|select|insert|update|postgres|mysql|maria/i);
}

/** Another connection to the database, holding what the test asks for until it is closed. */
interface Holder {
  run(statement: string): Promise<void>;
  close(): Promise<void>;
}

async function holder(name: 'postgres' | 'mariadb'): Promise<Holder> {
  const { url } = SERVERS[name];
  if (name === 'postgres') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return { run: async (statement) => void (await client.query(statement)), close: () => client.end() };
  }
  const connection = await createConnection(url);
  return { run: async (statement) => void (await connection.query(statement)), close: () => connection.end() };
}

const LOCK_TABLE = {
  postgres: (table: string) => ['BEGIN', `LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`],
  mariadb: (table: string) => [`LOCK TABLES \`${table}\` WRITE`],
};
const UNLOCK_TABLE = { postgres: 'COMMIT', mariadb: 'UNLOCK TABLES' };
const QUOTE = { postgres: (name: string) => `"${name}"`, mariadb: (name: string) => `\`${name}\`` };

for (const name of ['postgres', 'mariadb'] as const) {
  const { label, url } = SERVERS[name];

  describe(`${label}: locks held by another connection`, () => {
    if (!serverAvailable(name)) return;

    const open = (options: SqlStoreOptions = { poolSize: 2, connectTimeoutMs: 1000, lockTimeoutMs: 1000 }) => {
      const tablePrefix = `lk${Math.random().toString(36).slice(2, 8)}_`;
      const store = droppingTables(sqlStore(url, { ...options, tablePrefix }), tablePrefix);
      return { table: `${tablePrefix}books`, store };
    };

    it('a locked table: every request answers 503 with Retry-After, more of them than connections, then all is served again', async () => {
      const { table, store } = open();
      const api = await serve(store);
      const other = await holder(name);
      try {
        const created = await api.send('POST', '/books', book);
        expect(created.status).toBe(200);
        const { id } = (await created.json()).book;
        for (const statement of LOCK_TABLE[name](table)) await other.run(statement);
        // Six requests on a pool of two: the first wait for the lock, the others for a connection.
        const answers = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            i % 2 === 0 ? api.send('GET', `/books/${id}`) : api.send('POST', '/books', book),
          ),
        );
        for (const answer of answers) await expectUnavailable(answer);
        await other.run(UNLOCK_TABLE[name]);
        expect((await api.send('GET', `/books/${id}`)).status).toBe(200);
        expect((await api.send('POST', '/books', book)).status).toBe(200);
      } finally {
        await other.close();
        await api.close();
      }
    }, 20_000);

    it('the wait for a connection of the pool is bounded by connectTimeoutMs, whatever the request holding it waits for', async () => {
      // One connection: the first request holds it while it waits for the lock (up to 3 s); the
      // two behind it wait for the connection, and must give up first (after 0.5 s).
      const { table, store } = open({ poolSize: 1, connectTimeoutMs: 500, lockTimeoutMs: 3000 });
      const api = await serve(store);
      const other = await holder(name);
      try {
        const created = await api.send('POST', '/books', book);
        const { id } = (await created.json()).book;
        for (const statement of LOCK_TABLE[name](table)) await other.run(statement);
        const order: string[] = [];
        const request = (label: string) =>
          api.send('GET', `/books/${id}`).then((response) => {
            order.push(label);
            return response;
          });
        const holding = request('holding');
        await new Promise((resolve) => setTimeout(resolve, 100)); // it has the connection by now
        const queued = [request('queued'), request('queued')];
        for (const answer of await Promise.all([holding, ...queued])) await expectUnavailable(answer);
        expect(order).toEqual(['queued', 'queued', 'holding']);
        await other.run(UNLOCK_TABLE[name]);
        expect((await api.send('GET', `/books/${id}`)).status).toBe(200);
      } finally {
        await other.close();
        await api.close();
      }
    }, 20_000);

    it('a locked row: its update answers 503 with Retry-After, reads of it are served meanwhile', async () => {
      const { table, store } = open();
      const api = await serve(store);
      const other = await holder(name);
      try {
        const created = await api.send('POST', '/books', book);
        const { id } = (await created.json()).book;
        await other.run(name === 'postgres' ? 'BEGIN' : 'START TRANSACTION');
        await other.run(`UPDATE ${QUOTE[name](table)} SET ${QUOTE[name]('name')} = 'Held' WHERE id = ${Number(id)}`);
        await expectUnavailable(await api.send('PATCH', `/books/${id}`, { name: 'Dune II' }));
        const read = await api.send('GET', `/books/${id}`);
        expect(read.status).toBe(200);
        expect((await read.json()).book.name).toBe('Dune');
        await other.run('ROLLBACK');
        expect((await api.send('PATCH', `/books/${id}`, { name: 'Dune II' })).status).toBe(200);
      } finally {
        await other.close();
        await api.close();
      }
    }, 20_000);
  });
}
