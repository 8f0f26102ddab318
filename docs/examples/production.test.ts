// The production set-up of docs/deployment.md over real HTTP, on SQLite in memory.
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveHttp } from '@resourcery/testing';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, openStore, productionApp } from './production.js';

const store = openStore('sqlite::memory:');
const server = await listen(productionApp(store), 0);
let origin: string;
beforeAll(async () => {
  if (!server.listening) await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  await store.close?.();
});

describe('the production set-up', () => {
  it('answers the probes', async () => {
    expect(await (await fetch(`${origin}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${origin}/readyz`)).json()).toEqual({ status: 'ready' });
  });

  it('lets the listed origin read ETag, Link and X-Total-Count, and counts requests', async () => {
    const list = await fetch(`${origin}/api/books`, { headers: { origin: 'https://app.example.com' } });
    expect(list.status).toBe(200);
    expect(list.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(list.headers.get('access-control-expose-headers')).toBe('ETag,Link,X-Total-Count');
    expect(list.headers.get('ratelimit-policy')).toMatch(/q=300; w=60/);
    const other = await fetch(`${origin}/api/books`, { headers: { origin: 'https://elsewhere.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a request Node cannot parse with problem+json', async () => {
    const huge = await fetch(`${origin}/api/books`, { headers: { 'x-big': 'x'.repeat(20_000) } });
    expect(huge.status).toBe(431);
    expect(huge.headers.get('content-type')).toBe('application/problem+json');
  });

  it('does not listen when a table does not fit the declaration: listen rejects, naming it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'production-drift-'));
    const file = join(folder, 'books.sqlite');
    const db = new Database(file);
    db.exec('create table books (id integer primary key autoincrement, name text not null)'); // no author
    db.close();
    const drifted = openStore(`sqlite:${file}`);
    try {
      await expect(listen(productionApp(drifted), 0)).rejects.toThrow(/Table "books" has no column for author/);
      // Served without waiting for ready(), every request tries to prepare the store and fails.
      const unready = await serveHttp(productionApp(drifted));
      try {
        for (let i = 0; i < 2; i++) expect((await fetch(`${unready.baseUrl}/books`)).status).toBe(500);
      } finally {
        await unready.close();
      }
    } finally {
      await drifted.close?.();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
