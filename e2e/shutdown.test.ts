import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverAvailable } from '../packages/sql/test/helpers/databases.js';
import { bundleExampleServer, ExampleServer } from './helpers/example-server.js';
import { freshPostgresDatabase } from './helpers/fresh-database.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a create whose body arrives slowly: answers a function that sends the rest of the body,
 * and the response (status and text) once it comes.
 */
function slowCreate(baseUrl: string) {
  const body = JSON.stringify({ name: 'in flight', author: 'Slow' });
  const url = new URL(`${baseUrl}/books`);
  const req = request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const response = new Promise<{ status: number; text: string; connection?: string }>((resolve, reject) => {
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.once('end', () => resolve({ status: res.statusCode ?? 0, text, connection: res.headers.connection }));
      res.once('error', reject);
    });
    req.once('error', reject);
  });
  req.write(body.slice(0, 10));
  return { finish: () => req.end(body.slice(10)), response };
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 5000) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

async function gracefulShutdown(bundle: string, databaseUrl: string): Promise<void> {
  const server = await ExampleServer.start(bundle, databaseUrl);
  const exited = once(server.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  try {
    // The store is ready and a keep-alive connection sits idle: neither may hold the shutdown up.
    expect((await fetch(`${server.origin}/readyz`)).status).toBe(200);

    const inFlight = slowCreate(server.baseUrl);
    await sleep(200); // the server has the headers and part of the body
    server.child.kill('SIGTERM');
    await waitFor(() => server.output.includes('SIGTERM received'), 'the shutdown to start');

    // It no longer accepts connections...
    await expect(fetch(`${server.baseUrl}/books`)).rejects.toThrow();
    expect(server.child.exitCode).toBeNull(); // ...but waits for the request in flight.

    inFlight.finish();
    const reply = await inFlight.response;
    expect(reply.status, reply.text).toBe(200);
    expect(JSON.parse(reply.text).book).toMatchObject({ name: 'in flight', author: 'Slow' });
    expect(reply.connection).toBe('close');

    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(server.output).toContain('shut down');
  } finally {
    await server.kill('SIGKILL');
  }

  // The acknowledged create is stored.
  const again = await ExampleServer.start(bundle, databaseUrl);
  try {
    const { books } = (await (await fetch(`${again.baseUrl}/books`)).json()) as { books: { name: string }[] };
    expect(books.map((book) => book.name)).toContain('in flight');
  } finally {
    await again.kill('SIGTERM');
  }
}

describe('graceful shutdown of the example server on SIGTERM', () => {
  let bundle: string;
  const folder = mkdtempSync(join(tmpdir(), 'resourcery-shutdown-'));
  beforeAll(async () => {
    bundle = await bundleExampleServer();
  });
  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
    if (bundle) rmSync(bundle, { force: true });
  });

  it('SQLite: finishes the request in flight, refuses new connections, closes the store, exits 0', async () => {
    await gracefulShutdown(bundle, `sqlite:${join(folder, 'books.sqlite')}`);
  });

  it('exits 1 when a request in flight outlives SHUTDOWN_TIMEOUT_MS', async () => {
    const server = await ExampleServer.start(bundle, `sqlite:${join(folder, 'hang.sqlite')}`, {
      SHUTDOWN_TIMEOUT_MS: '300',
    });
    const exited = once(server.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const stuck = slowCreate(server.baseUrl);
    stuck.response.catch(() => {}); // the connection dies with the process
    try {
      await sleep(100);
      server.child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(1);
      expect(server.output).toContain('did not finish within 300 ms');
    } finally {
      await server.kill('SIGKILL');
    }
  });

  describe('PostgreSQL', () => {
    if (!serverAvailable('postgres')) return;
    it('finishes the request in flight, refuses new connections, closes the pool, exits 0', async () => {
      const database = await freshPostgresDatabase('rs_shutdown');
      try {
        await gracefulShutdown(bundle, database.url);
      } finally {
        await database.drop();
      }
    });
  });
});
