import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVERS, serverAvailable } from '../../../packages/sql/test/helpers/databases.js';
import { bundleExampleServer } from '../../../scripts/bundle-example-server.mjs';

// `npm start -w examples/library` runs the built server (`node dist/server.js`). The test bundles
// src/server.ts with the workspace packages taken from their sources (as e2e/ does for the books
// example), into a folder of its own: the default SQLite file (`../data/library.sqlite` next to
// the bundle) then lands in that folder too, and goes with it.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const folder = join(root, 'node_modules/.cache', `resourcery-library-${process.pid}-${Date.now()}`);
const bundle = join(folder, 'dist/server.mjs');

async function bundleServer(): Promise<void> {
  await bundleExampleServer('', 'server.ts', { example: 'library', outfile: bundle });
}

interface Running {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the process printed so far. */
  output: () => string;
}

/** Starts the bundled server with PORT=0 and waits for its start-up line. */
async function start(databaseUrl: string | undefined): Promise<Running> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0' };
  delete env.DATABASE_URL;
  if (databaseUrl !== undefined) env.DATABASE_URL = databaseUrl;
  const child = spawn(process.execPath, [bundle], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start:\n${output}`));
    }, 15_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/localhost:(\d+)\/api\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${output}`));
    });
  });
  return { child, baseUrl: `http://127.0.0.1:${port}/api`, output: () => output };
}

/** Runs the bundled server with DATABASE_URL until it exits by itself; answers its exit code and output. */
async function runToExit(databaseUrl: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bundle], {
    env: { ...process.env, PORT: '0', DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000); // it listened: the test fails, nothing is left
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Stops the server as `Ctrl-C` or a process manager would; answers its exit code. */
async function stop(server: Running): Promise<number | null> {
  if (server.child.exitCode !== null) return server.child.exitCode;
  const exited = once(server.child, 'exit');
  server.child.kill('SIGTERM');
  const [code] = (await exited) as [number | null];
  return code;
}

async function post(baseUrl: string, path: string, body: unknown) {
  const reply = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(reply.status).toBe(200);
  return (await reply.json()) as Record<string, { id: number }>;
}

describe('the library server (npm start)', () => {
  const running: Running[] = [];
  beforeAll(bundleServer, 60_000);
  afterAll(async () => {
    for (const server of running) server.child.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  });

  it('starts on PORT=0 with DATABASE_URL=memory:, prints one line, answers /api/books, stops on SIGTERM', async () => {
    const server = await start('memory:');
    running.push(server);
    expect(server.output()).toMatch(/^Library API on memory:: http:\/\/localhost:\d+\/api\/books\?include=author\n$/);
    const empty = await fetch(`${server.baseUrl}/books`);
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({ books: [] });
    const { author } = await post(server.baseUrl, '/authors', { name: 'Le Guin' });
    await post(server.baseUrl, '/books', { title: 'Earthsea', authorId: author?.id });
    const listed = await fetch(`${server.baseUrl}/books?include=author`);
    const { books } = (await listed.json()) as { books: { title: string; author: { name: string } }[] };
    expect(books.map((book) => [book.title, book.author.name])).toEqual([['Earthsea', 'Le Guin']]);
    expect(await stop(server)).toBe(0);
  });

  it('keeps the library in a SQLite file next to the app by default, across restarts', async () => {
    const file = join(folder, 'data/library.sqlite');
    const first = await start(undefined);
    running.push(first);
    expect(first.output()).toMatch(/^Library API on sqlite:\S+library\.sqlite: http:\/\/localhost:\d+\/api\/books/);
    expect(existsSync(file)).toBe(true);
    const { author } = await post(first.baseUrl, '/authors', { name: 'Herbert' });
    await post(first.baseUrl, '/books', { title: 'Dune', authorId: author?.id, price: 9.5 });
    expect(await stop(first)).toBe(0);

    const second = await start(undefined);
    running.push(second);
    const reply = await fetch(`${second.baseUrl}/books?include=author`);
    expect(reply.status).toBe(200);
    const { books } = (await reply.json()) as { books: { title: string; price: string; author: { name: string } }[] };
    expect(books.map((book) => [book.title, book.price, book.author.name])).toEqual([['Dune', '9.50', 'Herbert']]);
    expect(await stop(second)).toBe(0);
  });

  it('follows a cursor one process made on another process of the deployment, and after a restart', async () => {
    const shared = join(folder, 'shared');
    mkdirSync(shared, { recursive: true });
    const url = `sqlite:${join(shared, 'library.sqlite')}`;
    const [one, two] = [await start(url), await start(url)];
    running.push(one, two);
    const { author } = await post(one.baseUrl, '/authors', { name: 'Le Guin' });
    const { book } = await post(one.baseUrl, '/books', { title: 'Earthsea', authorId: author?.id });
    for (const rating of [1, 2, 3]) await post(one.baseUrl, '/reviews', { bookId: book?.id, rating });
    const first = await fetch(`${one.baseUrl}/reviews?sort=rating&per_page=1`);
    const next = /<[^>]*\/api(\/reviews\?[^>]*)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next, 'the first page links to the next').toBeTypeOf('string');
    const follow = async (server: Running) => {
      const reply = await fetch(`${server.baseUrl}${next}`);
      expect(reply.status, await reply.clone().text()).toBe(200);
      return ((await reply.json()) as { reviews: { rating: number }[] }).reviews.map((review) => review.rating);
    };
    expect(await follow(two)).toEqual([2]);
    expect(await stop(one)).toBe(0);
    expect(await stop(two)).toBe(0);
    const again = await start(url);
    running.push(again);
    expect(await follow(again)).toEqual([2]);
    expect(await stop(again)).toBe(0);
  });

  it('stops before listening, in one line, when a table does not fit the declarations (SQLite)', async () => {
    const drifted = join(folder, 'drifted');
    mkdirSync(drifted, { recursive: true });
    const file = join(drifted, 'library.sqlite');
    const db = new Database(file);
    db.exec('create table authors (id integer primary key autoincrement, name text not null)'); // no country, no timestamps
    db.close();
    const { code, stdout, stderr } = await runToExit(`sqlite:${file}`);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^The store at sqlite:\S+library\.sqlite is not usable: Table "authors" has no column for country, createdAt, updatedAt; .*migration/,
    );
  });

  describe('on PostgreSQL', () => {
    if (!serverAvailable('postgres')) return;
    it('stops before listening, in one line, when a table does not fit the declarations', async () => {
      // A schema of its own, first on the server's search_path, holds an authors table of other types.
      const schema = `library_drift_${process.pid}`;
      const admin = new pg.Client({ connectionString: SERVERS.postgres.url });
      await admin.connect();
      try {
        await admin.query(`create schema ${schema}`);
        await admin.query(
          `create table ${schema}.authors (id bigint primary key, name text not null, country text, "createdAt" text not null, "updatedAt" timestamptz not null)`,
        );
        const url = new URL(SERVERS.postgres.url);
        url.searchParams.set('options', `-c search_path=${schema}`);
        const { code, stdout, stderr } = await runToExit(url.href);
        expect(code).toBe(1);
        expect(stdout).toBe('');
        const lines = stderr.trimEnd().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(
          /^The store at postgres:\/\/\S+ is not usable: Table "authors" does not match the declaration of authors: column "createdAt" is text, which cannot hold the declared date-time/,
        );
      } finally {
        await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      }
    });
  });
});
