import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openEvents } from '@resourcery/testing';
import { SignJWT } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverAvailable } from '../packages/sql/test/helpers/databases.js';
import { bundleExampleServer } from '../scripts/bundle-example-server.mjs';
import { ExampleServer } from './helpers/example-server.js';
import { freshPostgresDatabase } from './helpers/fresh-database.js';

// Live events across processes (CONTRACT part 4): two tracker servers on one PostgreSQL
// database. A change written through one reaches the subscribers of the other (the change log
// table is the durable, ordered record; LISTEN/NOTIFY only wakes the other process), and a
// notification lost while the listening connection is down is delivered after it reconnects.

const SECRET = 'live-e2e-secret';
const token = (sub: number, org: number, role: string) =>
  new SignJWT({ sub: String(sub), org, role })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(SECRET));

describe('live events across two tracker servers on one PostgreSQL database', () => {
  if (!serverAvailable('postgres')) return;

  let bundle: string;
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let servers: ExampleServer[] = [];
  let admin: string;
  let viewer: string;
  let projectId: number;

  const post = async (server: ExampleServer, title: string) => {
    const response = await fetch(`${server.baseUrl}/issues`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ issue: { projectId, title } }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return ((await response.json()) as { issue: { id: number } }).issue;
  };

  beforeAll(async () => {
    bundle = await bundleExampleServer('resourcery-tests', 'server.ts', { example: 'tracker' });
    database = await freshPostgresDatabase('rs_live');
    const env = { TRACKER_JWT_SECRET: SECRET };
    servers = [
      await ExampleServer.start(bundle, database.url, env),
      await ExampleServer.start(bundle, database.url, env),
    ];
    admin = `Bearer ${await token(1, 1, 'admin')}`;
    viewer = `Bearer ${await token(2, 1, 'viewer')}`;
    const made = await fetch(`${servers[0]?.baseUrl}/projects`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ project: { name: 'Live' } }),
    });
    projectId = ((await made.json()) as { project: { id: number } }).project.id;
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill('SIGTERM')));
    await database?.drop();
    if (bundle) rmSync(bundle, { force: true });
  });

  it('a change through one server reaches the subscribers of the other, in commit order', async () => {
    const [one, two] = servers as [ExampleServer, ExampleServer];
    const events = await openEvents(`${two.baseUrl}/issues/events`, { authorization: viewer });
    try {
      const started = performance.now();
      const first = await post(one, 'Through one');
      const received = await events.next(5_000);
      console.log(`live events across processes: delivered in ${(performance.now() - started).toFixed(0)} ms`);
      expect(received?.event).toBe('created');
      expect(JSON.parse(received?.data ?? '{}').issue).toMatchObject({ id: first.id, title: 'Through one' });
      // Writes through both servers arrive in the order they committed.
      const a = await post(two, 'A');
      const b = await post(one, 'B');
      const c = await post(two, 'C');
      const ids = [await events.next(5_000), await events.next(5_000), await events.next(5_000)].map(
        (event) => JSON.parse(event?.data ?? '{}').issue.id,
      );
      expect(ids).toEqual([a.id, b.id, c.id]);
    } finally {
      events.close();
    }
  });

  it('a notification lost while the listening connection is down is delivered after it reconnects', async () => {
    const [one, two] = servers as [ExampleServer, ExampleServer];
    const events = await openEvents(`${two.baseUrl}/issues/events`, { authorization: viewer });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      // Both servers listen; dropping every listening connection drops the second server's too.
      const { rows } = await client.query(
        "select pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database() and query ilike 'listen%'",
      );
      expect(rows.length).toBeGreaterThan(0);
      const lost = await post(one, 'While nobody listens');
      const received = await events.next(10_000);
      expect(JSON.parse(received?.data ?? '{}').issue).toMatchObject({ id: lost.id });
    } finally {
      await client.end();
      events.close();
    }
  });
});
