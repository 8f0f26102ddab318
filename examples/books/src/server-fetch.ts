// The books API on a Fetch runtime: `Bun.serve` under Bun (`npm run start:bun`), `Deno.serve`
// under Deno (`npm run start:deno`), through @resourcery/fetch. PORT and DATABASE_URL as `npm start`.
import process from 'node:process';
import type { Store } from '@resourcery/core/store';
import { createFetchHandler } from '@resourcery/fetch';
import { redactUrl } from '@resourcery/sql';
import { books } from './book.js';
import { exitWith, storeFailure } from './start-up-errors.js';
import { storeFromUrl } from './store-from-url.js';

/** What this file uses of `Bun.serve` and `Deno.serve` (their own type packages are not installed). */
type FetchHandler = (request: Request) => Promise<Response>;
interface Runtimes {
  Bun?: { serve(options: { port: number; fetch: FetchHandler }): { port: number; stop(): Promise<void> } };
  Deno?: {
    serve(
      options: { port: number; onListen(address: { port: number }): void },
      handler: FetchHandler,
    ): { shutdown(): Promise<void> };
  };
}

interface Listening {
  port: number;
  close(): Promise<void>;
}

const { Bun, Deno } = globalThis as Runtimes;
const runtime = Bun ? 'Bun' : Deno ? 'Deno' : undefined;
if (!runtime) throw new Error('server-fetch.js runs under Bun or Deno; under Node, run `npm start` (dist/server.js)');

// better-sqlite3 is a Node addon that neither Bun nor Deno can load, so the default SQLite file of
// `npm start` is not available here: unset, DATABASE_URL means memory, and SQLite URLs are refused.
if (/^sqlite:/i.test(process.env.DATABASE_URL ?? '')) {
  throw new Error(`DATABASE_URL: SQLite needs better-sqlite3, a Node addon ${runtime} cannot load; use postgres://…`);
}
const databaseUrl = process.env.DATABASE_URL || 'memory:';
const port = Number(process.env.PORT ?? 3000);
const store: Store = storeFromUrl(databaseUrl);
// Also serves the OpenAPI document at /api/openapi.json and its docs page at /api/docs.
const handler = createFetchHandler({
  resources: [books],
  store,
  basePath: '/api',
  openapi: { title: 'Books API', version: '1.0.0' },
});

// Connect, create the tables or check that they fit the declaration, before listening: a
// database out of reach, or a table that does not fit, stops the start with one line.
try {
  await handler.api.ready();
} catch (error) {
  exitWith(storeFailure(error, databaseUrl));
}

function listen(): Promise<Listening> {
  if (Bun) {
    const server = Bun.serve({ port, fetch: handler });
    return Promise.resolve({ port: server.port, close: () => server.stop() });
  }
  return new Promise((resolve) => {
    const server = Deno!.serve(
      { port, onListen: (address) => resolve({ port: address.port, close: () => server.shutdown() }) },
      handler,
    );
  });
}

const server = await listen();
const where = process.env.DATABASE_URL ? redactUrl(databaseUrl) : 'memory (the default under Bun and Deno)';
console.log(`Books API on ${runtime}, ${where}: http://localhost:${server.port}/api/books`);
console.log(`API docs: http://localhost:${server.port}/api/docs`);

let shuttingDown = false;
/** Stops accepting connections, ends the open streams, lets requests in flight finish, closes the store's pool, exits 0. */
async function shutdown(signal: string): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`${signal} received, shutting down`);
  try {
    // The runtime's graceful stop waits for the requests in flight: open streams end first.
    const closed = server.close();
    handler.closeStreams();
    await closed;
    await store.close?.();
    console.log('shut down');
    process.exit(0);
  } catch (error) {
    console.error('shutting down failed', error);
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
