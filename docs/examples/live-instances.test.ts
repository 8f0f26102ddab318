// docs/live.md's several instances: two instances of the tasks API on one database (a SQLite file;
// a PostgreSQL database when the test server is up), each served over HTTP: a task created through
// one reaches a stream opened on the other.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEvents } from '@resourcery/testing';
import { SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from '../../e2e/helpers/fresh-database.js';
import { serverAvailable } from '../../packages/sql/test/helpers/databases.js';
import { instance } from './live-instances.js';

const SECRET = 'live-instances-secret';
const token = (sub: number, org: number, role: string) =>
  new SignJWT({ sub: String(sub), org, role })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(SECRET));

async function serve(databaseUrl: string) {
  const listener = instance(databaseUrl, SECRET);
  const server = createServer(listener).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as { port: number }).port}/api`,
    async close() {
      server.closeAllConnections();
      server.close();
      await listener.api.close();
    },
  };
}

async function acrossInstances(databaseUrl: string) {
  const one = await serve(databaseUrl);
  const two = await serve(databaseUrl);
  try {
    const member = `Bearer ${await token(1, 1, 'member')}`;
    // The first request of each instance prepares its tables (the second finds them).
    expect((await fetch(`${one.base}/tasks`, { headers: { authorization: member } })).status).toBe(200);
    expect((await fetch(`${two.base}/tasks`, { headers: { authorization: member } })).status).toBe(200);
    const events = await openEvents(`${two.base}/tasks/events`, { authorization: member });
    try {
      const made = await fetch(`${one.base}/tasks`, {
        method: 'POST',
        headers: { authorization: member, 'content-type': 'application/json' },
        body: JSON.stringify({ task: { title: 'Made on one' } }),
      });
      expect(made.status).toBe(200);
      const event = await events.next(10_000);
      expect(event?.event).toBe('created');
      expect(JSON.parse(event?.data ?? '{}').task).toMatchObject({ title: 'Made on one', orgId: 1 });
    } finally {
      events.close();
    }
  } finally {
    await one.close();
    await two.close();
  }
}

describe('live events on several instances', () => {
  const folder = mkdtempSync(join(tmpdir(), 'resourcery-live-instances-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('on one SQLite file', () => acrossInstances(`sqlite:${join(folder, 'tasks.sqlite')}`));

  it.runIf(serverAvailable('postgres'))('on one PostgreSQL database', async () => {
    const database = await freshPostgresDatabase('rs_live_docs');
    try {
      await acrossInstances(database.url);
    } finally {
      await database.drop();
    }
  });
});
