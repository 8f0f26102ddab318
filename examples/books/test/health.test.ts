import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStore } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function serve(store: Store, readyTimeoutMs?: number) {
  const server = createApp(store, { readyTimeoutMs }).listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  return {
    get: (path: string) => fetch(`http://127.0.0.1:${port}${path}`),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close?.();
    },
  };
}

describe('health probes', () => {
  const folder = mkdtempSync(join(tmpdir(), 'resourcery-health-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  for (const [label, open] of [
    ['memory', () => memoryStore()],
    ['SQLite', () => sqlStore(`sqlite:${join(folder, 'books.sqlite')}`)],
  ] as const) {
    it(`${label}: /healthz and /readyz answer 200`, async () => {
      const app = await serve(open());
      try {
        const live = await app.get('/healthz');
        expect(live.status).toBe(200);
        expect(await live.json()).toEqual({ status: 'ok' });
        const ready = await app.get('/readyz');
        expect(ready.status).toBe(200);
        expect(ready.headers.get('cache-control')).toBe('no-store');
        expect(await ready.json()).toEqual({ status: 'ready' });
        // The probe created the table: the API works right after.
        expect((await app.get('/api/books')).status).toBe(200);
      } finally {
        await app.close();
      }
    });
  }

  for (const scheme of ['postgres', 'mysql'] as const) {
    it(`${scheme} on a closed port: /healthz 200, /readyz 503 problem+json telling nothing of the database`, async () => {
      const url = `${scheme}://root@127.0.0.1:${await closedPort()}/test`;
      const app = await serve(sqlStore(url, { connectTimeoutMs: 1000 }));
      try {
        expect((await app.get('/healthz')).status).toBe(200);
        const ready = await app.get('/readyz');
        const text = await ready.text();
        expect(ready.status, text).toBe(503);
        expect(ready.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(ready.headers.get('retry-after')).toBe('1');
        expect(JSON.parse(text)).toMatchObject({
          status: 503,
          title: 'Service Unavailable',
          code: 'service_unavailable',
        });
        expect(text).not.toMatch(/ECONN|127\.0\.0\.1|select|postgres|mysql|\.ts\b/i);
        expect((await app.get('/healthz')).status).toBe(200); // alive, only not ready
      } finally {
        await app.close();
      }
    });
  }

  it('/readyz answers 503 when the store hangs longer than readyTimeoutMs', async () => {
    const memory = memoryStore();
    const hanging: Store = {
      collection: (schema) => ({ ...memory.collection(schema), list: () => new Promise(() => {}) }),
      transaction: (work) => memory.transaction(work),
      secret: (name) => memory.secret(name),
    };
    const app = await serve(hanging, 100);
    try {
      const started = Date.now();
      expect((await app.get('/readyz')).status).toBe(503);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await app.close();
    }
  });
});
