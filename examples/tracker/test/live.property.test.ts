// The live events property (property/live.ts): random subscribers of both organizations and the
// three roles watch issues (with a random filter) or users while random principals write; every
// event a subscriber gets is what its own show allowed right then (never another organization's
// record, never a hidden field), in order, once, and every change it may see reaches it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStore } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import type { EventReader } from '@resourcery/testing';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVERS, serverAvailable } from '../../../packages/sql/test/helpers/databases.js';
import { serverStore, serveTracker } from './helpers/tracker-stores.js';
import { checkEvents, snapshot, targetOf, type Watcher, watch, watchPlan, write, writePlan } from './property/live.js';
import { clientOf, seed, worldPlan } from './property/plan.js';

const SECRET = 'live-property-secret';
const RUNS = Number(process.env.LIVE_PROPERTY_RUNS ?? 8);

function liveProperty(open: () => Store, runs: number): () => Promise<void> {
  return () =>
    fc.assert(
      fc.asyncProperty(
        worldPlan,
        fc.array(watchPlan, { minLength: 2, maxLength: 5 }),
        fc.array(writePlan, { minLength: 4, maxLength: 16 }),
        async (plans, watches, writes) => {
          const target = await serveTracker(open(), SECRET);
          const streams: EventReader[] = [];
          try {
            const seeded = await seed(target.baseUrl, SECRET, plans);
            const client = ({ org, role, user }: (typeof watches)[number]['principal']) =>
              clientOf(target.baseUrl, SECRET, org * 10 + user, org, role);
            const watchers: Watcher[] = [];
            for (const plan of watches) {
              const watcher = { plan, client: await client(plan.principal), history: new Map() };
              watchers.push(watcher);
              streams.push(await watch(target.baseUrl, watcher.client.authorization as string, plan));
            }
            for (const [n, plan] of writes.entries()) {
              const before = targetOf(plan, seeded);
              if (before) await snapshot(watchers, before, false, true);
              const written = await write(await client(plan.principal), plan, seeded, n);
              if (written) await snapshot(watchers, written.path, written.created);
            }
            // Each subscriber reads until a record of its own marker write, which it sees through its filter.
            const markers = new Set<string>();
            const marks: string[] = [];
            for (const { plan } of watchers) {
              const admin = await clientOf(
                target.baseUrl,
                SECRET,
                plan.principal.org * 10 + 1,
                plan.principal.org,
                'admin',
              );
              const reply =
                plan.resource === 'users'
                  ? await admin.send('POST', '/users', {
                      name: 'Marker',
                      email: `m${markers.size}@x.example`,
                      role: plan.filter?.role ?? 'viewer',
                    })
                  : await admin.send('POST', '/issues', {
                      projectId: seeded.projects[plan.principal.org === 1 ? 0 : seeded.projects.length - 1],
                      title: 'Marker',
                      status: plan.filter?.status ?? 'open',
                      priority: 4,
                    });
              expect(reply.status, `the marker of ${JSON.stringify(plan)}: ${reply.text}`).toBe(200);
              const [key, record] = Object.entries(reply.body)[0] as [string, { id: number }];
              marks.push(`/${key}s/${record.id}`);
              markers.add(`/${key}s/${record.id}`);
            }
            for (const [n, watcher] of watchers.entries()) {
              const events = await (streams[n] as EventReader).until((event) => {
                const data = JSON.parse(event.data) as Record<string, { id: number }>;
                return `/${watcher.plan.resource}/${Object.values(data)[0]?.id}` === marks[n];
              });
              const { principal } = watcher.plan;
              const label = `${principal.role} ${principal.user} of org ${principal.org} on ${watcher.plan.resource}`;
              checkEvents(watcher, events, markers, label);
            }
          } finally {
            for (const stream of streams) stream.close();
            await target.close();
          }
        },
      ),
      { numRuns: runs, endOnFailure: true },
    );
}

describe('live events property: every event is what the subscriber’s own show allowed, and each one it may see comes', () => {
  it('on the memory store', liveProperty(memoryStore, RUNS), 300_000);

  const folder = mkdtempSync(join(tmpdir(), 'resourcery-tracker-live-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  let files = 0;
  it(
    'on SQLite',
    liveProperty(() => sqlStore(`sqlite:${join(folder, `${++files}.sqlite`)}`), Math.ceil(RUNS / 2)),
    300_000,
  );

  for (const name of ['postgres', 'mariadb'] as const) {
    if (serverAvailable(name)) {
      it(
        `on ${SERVERS[name].label}`,
        liveProperty(() => serverStore(name, 'trkl'), Math.ceil(RUNS / 4)),
        300_000,
      );
    }
  }
});
