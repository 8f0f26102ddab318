import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqlStore } from '@resourcery/sql';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVERS, serverAvailable } from '../packages/sql/test/helpers/databases.js';
import { bundleExampleServer, ExampleServer } from './helpers/example-server.js';

const WRITERS = 8;
const KILL_AFTER_ACKS = 120;

/** What a writer knows about one of its books: the values it was told were stored. */
interface Acked {
  id: number;
  author: string;
  name: string;
  /** The rename sent but not answered when the server died: it may or may not be stored. */
  pendingName?: string;
}

async function json(response: Response) {
  return response.status === 200 ? ((await response.json()) as { book: { id: number; name: string } }) : undefined;
}

/** Creates then renames books in a loop until the server dies; records every write answered 200. */
async function writer(baseUrl: string, index: number, acked: Acked[], counter: { acks: number }): Promise<void> {
  const send = (method: string, path: string, body: unknown) =>
    fetch(`${baseUrl}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  try {
    for (let n = 0; ; n++) {
      const author = `writer ${index}`;
      const created = await json(await send('POST', '/books', { name: `w${index}-${n}`, author }));
      if (!created) throw new Error('create failed');
      const record: Acked = { id: created.book.id, author, name: created.book.name };
      acked.push(record);
      counter.acks++;
      record.pendingName = `w${index}-${n} renamed`;
      const renamed = await json(await send('PATCH', `/books/${record.id}`, { name: record.pendingName }));
      if (!renamed) throw new Error('update failed');
      record.name = record.pendingName;
      record.pendingName = undefined;
      counter.acks++;
    }
  } catch {
    // The server was killed: the request in flight has no answer, so it promised nothing.
  }
}

async function killMidLoad(bundle: string, databaseUrl: string): Promise<Acked[]> {
  const server = await ExampleServer.start(bundle, databaseUrl);
  const acked: Acked[] = [];
  const counter = { acks: 0 };
  const writers = Array.from({ length: WRITERS }, (_, index) => writer(server.baseUrl, index, acked, counter));
  while (counter.acks < KILL_AFTER_ACKS) await new Promise((resolve) => setTimeout(resolve, 5));
  await server.kill('SIGKILL');
  await Promise.all(writers);
  return acked;
}

async function expectAllPresent(bundle: string, databaseUrl: string, acked: Acked[]): Promise<void> {
  const server = await ExampleServer.start(bundle, databaseUrl);
  try {
    for (const record of acked) {
      const response = await fetch(`${server.baseUrl}/books/${record.id}`);
      expect(response.status, `book ${record.id}`).toBe(200);
      const { book } = (await response.json()) as { book: { author: string; name: string } };
      expect(book.author).toBe(record.author);
      expect([record.name, record.pendingName]).toContain(book.name);
    }
    const next = await fetch(`${server.baseUrl}/books`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'after restart', author: 'x' }),
    });
    const { book } = (await next.json()) as { book: { id: number } };
    expect(book.id).toBeGreaterThan(Math.max(...acked.map((record) => record.id)));
  } finally {
    await server.kill('SIGTERM');
  }
}

describe('durability: every write answered 200 survives kill -9 of the server', () => {
  let bundle: string;
  const folder = mkdtempSync(join(tmpdir(), 'resourcery-durability-'));
  beforeAll(async () => {
    bundle = await bundleExampleServer();
  });
  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
    if (bundle) rmSync(bundle, { force: true });
  });

  it('SQLite', async () => {
    const url = `sqlite:${join(folder, 'books.sqlite')}`;
    const acked = await killMidLoad(bundle, url);
    expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKS / 2);
    await expectAllPresent(bundle, url, acked);
  }, 60_000);

  for (const name of ['postgres', 'mariadb'] as const) {
    const { label, url: serverUrl } = SERVERS[name];
    if (!serverAvailable(name)) continue;
    it(label, async () => {
      // A database of its own, so that the example's `books` table starts empty.
      const admin = sqlStore(serverUrl);
      const database = `rs_durability_${Math.random().toString(36).slice(2, 8)}`;
      await sql`create database ${sql.id(database)}`.execute(admin.db);
      const url = new URL(serverUrl);
      url.pathname = `/${database}`;
      try {
        const acked = await killMidLoad(bundle, url.href);
        expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKS / 2);
        await expectAllPresent(bundle, url.href, acked);
      } finally {
        const force = name === 'postgres' ? sql` with (force)` : sql``;
        await sql`drop database if exists ${sql.id(database)}${force}`.execute(admin.db);
        await admin.close();
      }
    }, 60_000);
  }
});
