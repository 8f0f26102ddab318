// The books example served by @resourcery/fetch under Bun (Bun.serve) and Deno (Deno.serve): the
// example's src/server-fetch.ts, bundled from the workspace sources, runs in a child process of
// each runtime, started with the flags of its `start:bun` / `start:deno` script, a fresh process
// (and on PostgreSQL a fresh database) for every group of the shared HTTP conformance suite.
import { rmSync } from 'node:fs';
import { type HttpSuiteTarget } from '@resourcery/testing';
import { httpConformanceSuite, readStreamText, readStreamToEnd } from '@resourcery/testing/suites';
import { afterAll, describe, expect, it } from 'vitest';
import { serverAvailable } from '../packages/sql/test/helpers/databases.js';
import { bundleExampleServer as bundleSource } from '../scripts/bundle-example-server.mjs';
import { bundleExampleServer, ExampleServer } from './helpers/example-server.js';
import { RUNTIMES, type RuntimeName, runtimeAvailable, runtimeCommand } from './helpers/fetch-runtimes.js';
import { driftedPostgres, freshPostgresDatabase } from './helpers/fresh-database.js';

let bundled: Promise<string> | undefined;
/** One bundle of server-fetch.ts for the whole file, made when the first server starts. */
const bundle = () => {
  bundled ??= bundleExampleServer('server-fetch.ts');
  return bundled;
};
let bundledStreaming: Promise<string> | undefined;
/** One bundle of helpers/stream-server.ts for the whole file, made when first needed. */
const streamingBundle = () => {
  bundledStreaming ??= bundleSource('resourcery-tests', 'stream-server.ts', { source: 'e2e/helpers/stream-server.ts' });
  return bundledStreaming;
};
afterAll(async () => {
  if (bundled) rmSync(await bundled, { force: true });
  if (bundledStreaming) rmSync(await bundledStreaming, { force: true });
});

/**
 * The streamed body of live events through @resourcery/fetch on a runtime: the stream server
 * (helpers/stream-server.ts) feeds it as the test says, over its `/control/` paths.
 */
async function checkStreaming(name: RuntimeName, command: string[]): Promise<void> {
  const server = await ExampleServer.start(await streamingBundle(), '', {}, command);
  const origin = server.origin;
  const control = (action: string, body?: string) =>
    fetch(`${origin}/control/${action}`, { method: 'POST', body }).then((res) => res.json());
  /**
   * Opens a stream: the response (head only) and its body's reader. Bun withholds the end of the
   * head until the first chunk (oven-sh/bun#33660, a pull request open as of Bun 1.4): there,
   * `first` is pushed before the head is awaited; elsewhere, after it came.
   */
  const open = async (first: string, signal?: AbortSignal) => {
    const responded = fetch(`${server.baseUrl}/streamed`, {
      headers: { accept: 'text/event-stream', 'accept-encoding': 'gzip, deflate, br' },
      signal,
    });
    await control('next');
    if (name === 'bun') await control('push', first);
    const response = await responded;
    if (name !== 'bun') await control('push', first);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await readStreamText(reader, first);
    return { response, reader };
  };
  try {
    // The head (before any chunk, but on Bun), with no length and no compression; each chunk as pushed.
    let { response, reader } = await open('data: one\n\n');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('content-encoding')).toBeNull();
    for (const chunk of [': a comment\n\n', `data: ${'é'.repeat(200)}\n\n`]) {
      await control('push', chunk);
      await readStreamText(reader, chunk);
    }
    await control('end');
    expect(await readStreamToEnd(reader)).toBe(0);

    // The client going away stops the producer.
    const aborted = new AbortController();
    ({ reader } = await open('data: one\n\n', aborted.signal));
    aborted.abort();
    expect(await control('stopped')).toMatchObject({ returned: true });

    // A client that reads nothing holds the producer back; reading, it gets every byte.
    ({ reader } = await open('data: one\n\n'));
    const flood = (await control('flood')) as { pulls: number; bytes: number };
    expect(flood.pulls, `pulled ${flood.pulls} times with nothing read`).toBeLessThan(100);
    await control('end');
    expect(await readStreamToEnd(reader)).toBe(flood.bytes);

    // SIGTERM with a stream open: the stream ends (not reset), the server stops and exits 0.
    ({ reader } = await open('data: one\n\n'));
    await server.kill('SIGTERM');
    expect(await readStreamToEnd(reader)).toBe(0);
    expect(server.child.exitCode, server.output).toBe(0);
    expect(server.output).toContain('shut down');
  } finally {
    await server.kill('SIGKILL');
  }
}

async function serve(command: string[], databaseUrl: string, cleanUp?: () => Promise<void>): Promise<HttpSuiteTarget> {
  let server: ExampleServer;
  try {
    server = await ExampleServer.start(await bundle(), databaseUrl, {}, command);
  } catch (error) {
    await cleanUp?.();
    throw error;
  }
  return {
    baseUrl: server.baseUrl,
    close: async () => {
      await server.kill('SIGTERM');
      await cleanUp?.();
    },
  };
}

const postgres = serverAvailable('postgres');

for (const name of Object.keys(RUNTIMES) as RuntimeName[]) {
  const label = RUNTIMES[name];
  describe(`books example on ${label} (server-fetch.ts)`, () => {
    if (!runtimeAvailable(name)) return;
    const command = runtimeCommand(name);

    it('serves memory when DATABASE_URL is unset, says so, and exits 0 on SIGTERM', async () => {
      const server = await ExampleServer.start(await bundle(), '', {}, command);
      try {
        expect(server.output).toContain(`Books API on ${label}, memory (the default under Bun and Deno)`);
        const created = await fetch(`${server.baseUrl}/books`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Kindred', author: 'Octavia Butler' }),
        });
        expect(created.status).toBe(200);
        await server.kill('SIGTERM');
        expect(server.child.exitCode).toBe(0);
        expect(server.output).toContain('shut down');
      } finally {
        await server.kill('SIGKILL'); // nothing left running when an expectation fails
      }
    });

    it('refuses a SQLite URL at start-up and says why (better-sqlite3 is a Node addon)', async () => {
      const started = ExampleServer.start(await bundle(), 'sqlite:books.sqlite', {}, command);
      started.then((server) => server.kill('SIGKILL')).catch(() => undefined); // were it to start
      await expect(started).rejects.toThrow(`SQLite needs better-sqlite3, a Node addon ${label} cannot load`);
    });

    it('streams a body through @resourcery/fetch: head first, chunks as pushed, backpressure, abort, SIGTERM', () =>
      checkStreaming(name, command));

    httpConformanceSuite(`${label} + memory store`, () => serve(command, 'memory:'));

    if (postgres) {
      it('stops before listening, in one line, when the books table does not fit the declaration (PostgreSQL)', async () => {
        const drifted = await driftedPostgres(`fetch_${name}`);
        try {
          const started = ExampleServer.start(await bundle(), drifted.url, {}, command);
          started.then((server) => server.kill('SIGKILL')).catch(() => undefined); // were it to start
          await expect(started).rejects.toThrow(
            /exited with 1:\nThe database at postgres:\/\/\S+ cannot serve the books: Table "books" has no column for author/,
          );
        } finally {
          await drifted.drop();
        }
      });

      httpConformanceSuite(`${label} + PostgreSQL (pg)`, async () => {
        const database = await freshPostgresDatabase(`rs_fetch_${name}`);
        return serve(command, database.url, database.drop);
      });
    }
  });
}
