import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVERS, serverAvailable } from '../../../packages/sql/test/helpers/databases.js';
import { bundleExampleServer } from '../../../scripts/bundle-example-server.mjs';

// What a person starting the example's server sees when it cannot start: one line on stderr
// that says why and what to do, no stack trace, exit code 1.

let bundle: string;
let taken: Server;
let takenPort: number;

beforeAll(async () => {
  bundle = await bundleExampleServer('books-start-up');
  taken = createServer().listen(0); // as the server listens: every address
  await once(taken, 'listening');
  takenPort = (taken.address() as { port: number }).port;
}, 30_000);
afterAll(() => taken.close());

/** Runs the server to its exit with `env`; answers its exit code and output. */
async function start(env: Record<string, string>) {
  const child = spawn(process.execPath, [bundle], {
    env: { ...process.env, ...env },
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
  const [code] = await once(child, 'exit');
  return { code, stdout, stderr };
}

/** Starts the server with `env` and asserts it refused before listening, in one line matching `line`. */
async function refusedInOneLine(env: Record<string, string>, line: RegExp): Promise<void> {
  const { code, stdout, stderr } = await start(env);
  expect(code).toBe(1);
  expect(stdout).toBe(''); // never listened
  const lines = stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(line);
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

describe('the example server when it cannot start', () => {
  it('says in one line that the port is taken and how to pick another', async () => {
    const { code, stdout, stderr } = await start({ PORT: String(takenPort), DATABASE_URL: 'memory:' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toEqual([
      `Port ${takenPort} is taken by another program: stop it, or pick another port, e.g. PORT=${takenPort + 1} npm start`,
    ]);
  });

  it('names the host of a database it cannot reach, in one line', async () => {
    const port = await closedPort();
    const { code, stdout, stderr } = await start({
      PORT: '0',
      DATABASE_URL: `postgres://app:secret@127.0.0.1:${port}/books`,
    });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toEqual([
      `Cannot reach the database at 127.0.0.1:${port} (connection refused): check DATABASE_URL, or unset it to use a SQLite file`,
    ]);
  });

  it('says which URLs it takes when DATABASE_URL names no store, in one line', async () => {
    const { code, stderr } = await start({ PORT: '0', DATABASE_URL: 'redis://app:secret@cache/0' });
    expect(code).toBe(1);
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^DATABASE_URL: unsupported store "redis:\/\/app:\*\*\*@cache\/0"/);
  });

  it('says in one line which trace exporters it takes when OTEL_TRACES_EXPORTER names another', async () => {
    const { code, stdout, stderr } = await start({
      PORT: '0',
      DATABASE_URL: 'memory:',
      OTEL_TRACES_EXPORTER: 'zipkin',
    });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'OTEL_TRACES_EXPORTER=zipkin names "zipkin": use otlp, console or none, e.g. OTEL_TRACES_EXPORTER=otlp npm start\n',
    );
  });

  it('says in one line that the books table does not fit the declaration (SQLite), before listening', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'books-drift-'));
    try {
      const file = join(folder, 'books.sqlite');
      const db = new Database(file);
      db.exec('create table books (id integer primary key autoincrement, name text not null)'); // no author
      db.close();
      await refusedInOneLine(
        { PORT: '0', DATABASE_URL: `sqlite:${file}` },
        /^The database at sqlite:\S+books\.sqlite cannot serve the books: Table "books" has no column for author; .*migration/,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  describe('on PostgreSQL', () => {
    if (!serverAvailable('postgres')) return;
    it('says in one line that the books table does not fit the declaration, before listening', async () => {
      // A schema of its own, first on the server's search_path, holds a books table of other columns.
      const schema = `books_drift_${process.pid}`;
      const admin = new pg.Client({ connectionString: SERVERS.postgres.url });
      await admin.connect();
      try {
        await admin.query(`create schema ${schema}`);
        await admin.query(`create table ${schema}.books (id bigint primary key, name text, author integer not null)`);
        const url = new URL(SERVERS.postgres.url);
        url.searchParams.set('options', `-c search_path=${schema}`);
        await refusedInOneLine(
          { PORT: '0', DATABASE_URL: url.href },
          /^The database at postgres:\/\/\S+ cannot serve the books: Table "books" does not match the declaration of books: column "name" accepts NULL but name is declared required; column "author" is integer, which cannot hold the declared string/,
        );
      } finally {
        await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      }
    });
  });

  describe('through PgBouncer in transaction mode', () => {
    if (!serverAvailable('pgbouncer')) return;
    it('says in one line to add ?preparedStatements=false to DATABASE_URL, before listening', async () => {
      const url = new URL(SERVERS.pgbouncer.url);
      url.searchParams.delete('preparedStatements');
      await refusedInOneLine(
        { PORT: '0', DATABASE_URL: url.href },
        /^The database at postgres:\/\/\S+ cannot serve the books: PostgreSQL is reached through a connection pooler .*add \?preparedStatements=false to the database URL\)$/,
      );
    });
  });

  it('refuses a PORT that is not a port number, in one line', async () => {
    const { code, stderr } = await start({ PORT: 'http', DATABASE_URL: 'memory:' });
    expect(code).toBe(1);
    expect(stderr).toBe('PORT=http is not a port number: use 0 to 65535, e.g. PORT=3001 npm start\n');
  });
});
