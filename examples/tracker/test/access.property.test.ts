// The access property: for random principals (organizations 1 and 2, the three roles, three
// users each), random data (issues with labels and estimates) and random queries (filters,
// relation and label filters too, q=, sort, fields=, include= (labels too), pages,
// archived=true, shows of ids of both organizations), no answer carries or counts a record or a
// field that the same principal's own unfiltered index does not show: every listed and included
// record is one of theirs, as they see it; X-Total-Count lies between the matches through what
// they see and never counts more; a name they may not read is a 400. Statistics (issues and
// users, with random filters and groups) count and sum exactly what the caller's own index with
// the same filters lists (property/stats.ts). Bulk creates, updates and destroys over ids of both
// organizations succeed exactly when every record is the caller's to change, else change nothing
// anywhere (property/bulk.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStore } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVERS, serverAvailable } from '../../../packages/sql/test/helpers/databases.js';
import { serverStore, serveTracker } from './helpers/tracker-stores.js';
import { bulkPlan, checkBulk } from './property/bulk.js';
import {
  type Client,
  clientOf,
  type PrincipalPlan,
  principalPlan,
  type Seeded,
  seed,
  worldPlan,
} from './property/plan.js';
import { namesHidden, type QueryPlan, queryPlan } from './property/queries.js';
import { checkRecord, expected, hasKeyDeep, pathOf, showable, type View, viewOf } from './property/reference.js';
import { checkStats, statsPlan } from './property/stats.js';

const SECRET = 'property-secret';
const RUNS = Number(process.env.ACCESS_PROPERTY_RUNS ?? 12);

interface Caller {
  readonly client: Client;
  readonly view: View;
  readonly principal: PrincipalPlan;
}

/** Asks one query as one caller and holds the answer against that caller's own view. */
async function check(caller: Caller, query: QueryPlan, seeded: Seeded, baseUrl: string): Promise<void> {
  const { client, view, principal } = caller;
  const path = pathOf(query, seeded);
  const label = `${principal.role} of org ${principal.org}: GET ${path}`;
  const reply = await client.get(path);
  const hidden = namesHidden(query);
  if (hidden && principal.role !== 'admin') {
    expect(reply.status, `${label}: ${reply.text}`).toBe(400);
    return;
  }
  if (principal.role !== 'admin') expect(hasKeyDeep(reply.body, 'email'), `${label}: email`).toBe(false);
  if (query.show !== undefined) {
    expect(reply.status, `${label}: ${reply.text}`).toBe(showable(query, view, path) ? 200 : 404);
    if (reply.status === 200) checkRecord(query, reply.body[query.resource.slice(0, -1)], view, label);
    return;
  }
  expect(reply.status, `${label}: ${reply.text}`).toBe(200);
  const { lower, upper } = expected(query, view, seeded);
  let page = reply;
  for (let walked = 0; walked < 2; walked++) {
    const records = page.body[query.resource] as Record<string, unknown>[];
    for (const record of records) {
      expect(upper.has(record.id), `${label}: ${record.id} matches through what the caller sees`).toBe(true);
      checkRecord(query, record, view, label);
    }
    const total = Number(page.headers.get('x-total-count'));
    expect(total, `${label}: X-Total-Count`).toBeGreaterThanOrEqual(lower.size);
    expect(total, `${label}: X-Total-Count`).toBeLessThanOrEqual(upper.size);
    const next = /<([^>]*)>\s*;\s*rel="?next"?/.exec(page.headers.get('link') ?? '')?.[1];
    if (!next) break;
    page = await client.get(new URL(next, baseUrl).href);
    expect(page.status, `${label} (next page): ${page.text}`).toBe(200);
  }
}

/** The property on one store: a fresh server per run, seeded, then asked as several callers. */
function accessProperty(open: () => Store, runs: number): () => Promise<void> {
  return () =>
    fc.assert(
      fc.asyncProperty(
        worldPlan,
        fc.array(fc.tuple(principalPlan, queryPlan), { minLength: 10, maxLength: 30 }),
        fc.array(fc.tuple(principalPlan, statsPlan), { minLength: 2, maxLength: 6 }),
        fc.array(fc.tuple(principalPlan, bulkPlan), { minLength: 2, maxLength: 6 }),
        async (plans, asked, stats, bulk) => {
          const target = await serveTracker(open(), SECRET);
          try {
            const seeded = await seed(target.baseUrl, SECRET, plans);
            const callers = new Map<string, Caller>();
            const callerOf = async (principal: PrincipalPlan): Promise<Caller> => {
              const key = `${principal.org}/${principal.role}/${principal.user}`;
              let caller = callers.get(key);
              if (!caller) {
                const sub = principal.org * 10 + principal.user;
                const client = await clientOf(target.baseUrl, SECRET, sub, principal.org, principal.role);
                caller = { client, view: await viewOf(client), principal };
                callers.set(key, caller);
              }
              return caller;
            };
            for (const [principal, query] of asked)
              await check(await callerOf(principal), query, seeded, target.baseUrl);
            for (const [principal, plan] of stats) {
              const { client, view } = await callerOf(principal);
              const label = `${principal.role} of org ${principal.org}`;
              await checkStats({ client, view, role: principal.role, label }, plan, seeded);
            }
            // Bulk writes last: they change the records the views above were read from.
            const admins = await Promise.all(
              [1, 2].map((org) => clientOf(target.baseUrl, SECRET, org * 10 + 1, org, 'admin')),
            );
            for (const [principal, plan] of bulk) {
              const { client } = await callerOf(principal);
              const label = `${principal.role} of org ${principal.org}`;
              await checkBulk({ client, role: principal.role, org: principal.org, label }, plan, seeded, admins);
            }
          } finally {
            await target.close();
          }
        },
      ),
      { numRuns: runs, endOnFailure: true },
    );
}

describe('access property: no answer carries or counts what the caller’s own index does not show', () => {
  it('on the memory store', accessProperty(memoryStore, RUNS), 300_000);

  const folder = mkdtempSync(join(tmpdir(), 'resourcery-tracker-property-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  let files = 0;
  it(
    'on SQLite',
    accessProperty(() => sqlStore(`sqlite:${join(folder, `${++files}.sqlite`)}`), Math.ceil(RUNS / 3)),
    300_000,
  );

  for (const name of ['postgres', 'mariadb'] as const) {
    if (serverAvailable(name)) {
      it(
        `on ${SERVERS[name].label}`,
        accessProperty(() => serverStore(name, 'trkp'), Math.ceil(RUNS / 4)),
        300_000,
      );
    }
  }
});
