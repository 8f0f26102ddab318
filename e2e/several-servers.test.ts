import { rmSync } from 'node:fs';
import { sqlStore } from '@resourcery/sql';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverAvailable } from '../packages/sql/test/helpers/databases.js';
import { bundleExampleServer, ExampleServer } from './helpers/example-server.js';
import { freshPostgresDatabase } from './helpers/fresh-database.js';

const SERVER_COUNT = 4;
const CLIENTS = 16;
const CREATES_PER_CLIENT = 12;

interface Book {
  id: number;
  name: string;
  author: string;
}

async function send(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    etag: response.headers.get('etag'),
    total: response.headers.get('x-total-count'),
    text,
    json: text ? JSON.parse(text) : undefined,
  };
}

// Servers are stateless: four processes on one PostgreSQL database give the answers one would.
describe('four example servers on one PostgreSQL database', () => {
  if (!serverAvailable('postgres')) return;

  let bundle: string;
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let servers: ExampleServer[] = [];
  let turn = 0;
  /** The next server, round-robin, as a load balancer would pick it. */
  const next = () => (servers[turn++ % servers.length] as ExampleServer).baseUrl;

  beforeAll(async () => {
    bundle = await bundleExampleServer();
    database = await freshPostgresDatabase('rs_several');
    servers = await Promise.all(Array.from({ length: SERVER_COUNT }, () => ExampleServer.start(bundle, database.url)));
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill('SIGTERM')));
    await database?.drop();
    if (bundle) rmSync(bundle, { force: true });
  });

  async function stored(): Promise<Map<number, Book>> {
    const store = sqlStore(database.url);
    try {
      const { rows } = await sql<Book>`select id, name, author from books`.execute(store.db);
      return new Map(rows.map((row) => [Number(row.id), { ...row, id: Number(row.id) }]));
    } finally {
      await store.close();
    }
  }

  it('concurrent creates, updates and deletes through all servers: unique ids, no acknowledged write lost', async () => {
    // Every server's first request races to create the table.
    const first = await Promise.all(servers.map((server) => send(server.baseUrl, 'GET', '/books')));
    expect(first.map((reply) => reply.status)).toEqual(servers.map(() => 200));

    const created: Book[] = [];
    const deleted = new Set<number>();
    /** The last name each record was acknowledged to have (updates of a record come from one client). */
    const names = new Map<number, string>();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let n = 0; n < CREATES_PER_CLIENT; n++) {
          const reply = await send(next(), 'POST', '/books', { name: `c${client}-${n}`, author: `client ${client}` });
          expect(reply.status, reply.text).toBe(200);
          const book = reply.json.book as Book;
          created.push(book);
          names.set(book.id, book.name);
          if (n % 3 === 1) {
            const renamed = await send(next(), 'PATCH', `/books/${book.id}`, { name: `${book.name} renamed` });
            expect(renamed.status, renamed.text).toBe(200);
            names.set(book.id, renamed.json.book.name);
          }
          if (n % 4 === 2) {
            const gone = await send(next(), 'DELETE', `/books/${book.id}`);
            expect(gone.status, gone.text).toBeLessThan(300);
            deleted.add(book.id);
            expect((await send(next(), 'GET', `/books/${book.id}`)).status).toBe(404);
          }
        }
      }),
    );

    const ids = created.map((book) => book.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(CLIENTS * CREATES_PER_CLIENT);

    const rows = await stored();
    for (const book of created) {
      if (deleted.has(book.id)) {
        expect(rows.has(book.id), `book ${book.id} was deleted`).toBe(false);
      } else {
        expect(rows.get(book.id), `book ${book.id}`).toEqual({ ...book, name: names.get(book.id) });
      }
    }
    expect(rows.size).toBe(created.length - deleted.size);

    // Every server counts the same books.
    const totals = await Promise.all(
      servers.map(async (server) => (await send(server.baseUrl, 'GET', '/books?per_page=1')).total),
    );
    expect(totals).toEqual(servers.map(() => String(rows.size)));
  }, 40_000);

  it('concurrent updates of different fields of one record through different servers both stay', async () => {
    const books: Book[] = [];
    for (let n = 0; n < 20; n++)
      books.push((await send(next(), 'POST', '/books', { name: 'old', author: 'old' })).json.book);
    await Promise.all(
      books.flatMap((book, n) => [
        send(servers[n % SERVER_COUNT]?.baseUrl as string, 'PATCH', `/books/${book.id}`, { name: `name ${n}` }),
        send(servers[(n + 1) % SERVER_COUNT]?.baseUrl as string, 'PATCH', `/books/${book.id}`, {
          author: `author ${n}`,
        }),
      ]),
    ).then((replies) => {
      for (const reply of replies) expect(reply.status, reply.text).toBe(200);
    });
    const rows = await stored();
    books.forEach((book, n) => {
      expect(rows.get(book.id)).toEqual({ id: book.id, name: `name ${n}`, author: `author ${n}` });
    });
  });

  it('If-Match updates of one record from every server at once: exactly one wins, the others get 412', async () => {
    for (let round = 0; round < 10; round++) {
      const book = (await send(next(), 'POST', '/books', { name: 'contended', author: 'nobody' })).json.book as Book;
      const shown = await send(next(), 'GET', `/books/${book.id}`);
      const tag = shown.etag as string;
      expect(tag).toBeTruthy();
      const replies = await Promise.all(
        servers.map((server, index) =>
          send(server.baseUrl, 'PATCH', `/books/${book.id}`, { author: `server ${index}` }, { 'if-match': tag }),
        ),
      );
      const statuses = replies.map((reply) => reply.status).sort();
      expect(statuses, replies.map((reply) => reply.text).join('\n')).toEqual([200, 412, 412, 412]);
      const winner = replies.findIndex((reply) => reply.status === 200);
      for (const reply of replies.filter((r) => r.status === 412)) {
        expect(reply.json).toMatchObject({ status: 412 });
      }
      const after = await send(next(), 'GET', `/books/${book.id}`);
      expect(after.json.book).toEqual({ ...book, author: `server ${winner}` });
    }
  });
});
