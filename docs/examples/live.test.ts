// docs/live.md's server, over real HTTP on memory and SQLite: a stream of an organization's tasks,
// narrowed by a filter, never carrying another organization's, resumed with Last-Event-ID.
import { createServer } from 'node:http';
import { memoryStore } from '@resourcery/core';
import type { Store } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import { openEvents } from '@resourcery/testing';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { tasksListener } from './live.js';

const SECRET = 'live-docs-secret';
const tokenOf = (sub: number, org: number, role: string) =>
  new SignJWT({ sub: String(sub), org, role })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(SECRET));

const stores: Record<string, () => Store> = { memory: () => memoryStore(), SQLite: () => sqlStore('sqlite::memory:') };

for (const [label, open] of Object.entries(stores)) {
  describe(`live events (${label})`, () => {
    it('streams the organization’s task changes that match the filter, and resumes after the last event seen', async () => {
      const listener = tasksListener(open(), SECRET);
      const server = createServer(listener).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/api`;
      const ada = `Bearer ${await tokenOf(1, 1, 'member')}`;
      const eve = `Bearer ${await tokenOf(2, 2, 'member')}`;
      const post = (authorization: string, task: unknown) =>
        fetch(`${base}/tasks`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ task }),
        });
      try {
        const events = await openEvents(`${base}/tasks/events?filter[state]=doing`, { authorization: ada });
        expect(events.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
        await post(eve, { title: 'Not ours', state: 'doing' }); // another organization: never sent
        await post(ada, { title: 'Later', state: 'todo' }); // outside the filter: not sent
        await post(ada, { title: 'Write docs', state: 'doing' });
        const created = await events.next();
        expect(created?.event).toBe('created');
        expect(JSON.parse(created?.data ?? '{}').task).toMatchObject({ title: 'Write docs', state: 'doing', orgId: 1 });
        events.close();
        // Reconnecting with the last id seen replays what came since, then goes on live.
        await post(ada, { title: 'Review', state: 'doing' });
        const again = await openEvents(`${base}/tasks/events?filter[state]=doing`, {
          authorization: ada,
          'last-event-id': created?.id ?? '',
        });
        expect(JSON.parse((await again.next())?.data ?? '{}').task).toMatchObject({ title: 'Review' });
        again.close();
      } finally {
        server.closeAllConnections();
        server.close();
        await listener.api.close();
      }
    });
  });
}
