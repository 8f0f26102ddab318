// The books example served by @resourcery/fetch under Bun (Bun.serve) and Deno (Deno.serve): the
// example's src/server-fetch.ts, bundled from the workspace sources, runs in a child process of
// each runtime, started with the flags of its `start:bun` / `start:deno` script, a fresh process
// (and on PostgreSQL a fresh database) for every group of the shared HTTP conformance suite.
import { rmSync } from 'node:fs';
import { type HttpSuiteTarget, httpConformanceSuite } from '@resourcery/testing/suites';
import { afterAll, describe, expect, it } from 'vitest';
import { serverAvailable } from '../packages/sql/test/helpers/databases.js';
import { bundleExampleServer, ExampleServer } from './helpers/example-server.js';
import { RUNTIMES, type RuntimeName, runtimeAvailable, runtimeCommand } from './helpers/fetch-runtimes.js';
import { driftedPostgres, freshPostgresDatabase } from './helpers/fresh-database.js';

let bundled: Promise<string> | undefined;
/** One bundle of server-fetch.ts for the whole file, made when the first server starts. */
const bundle = () => {
  bundled ??= bundleExampleServer('server-fetch.ts');
  return bundled;
};
afterAll(async () => {
  if (bundled) rmSync(await bundled, { force: true });
});

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
