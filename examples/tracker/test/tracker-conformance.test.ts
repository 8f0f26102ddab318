import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStore } from '@resourcery/core';
import { sqlStore } from '@resourcery/sql';
import { trackerConformanceSuite } from '@resourcery/testing/suites';
import { afterAll } from 'vitest';
import { SERVERS, serverAvailable } from '../../../packages/sql/test/helpers/databases.js';
import { serverStore, serveTracker } from './helpers/tracker-stores.js';

// CONTRACT part 4's access control over real HTTP, on every store: the example's own app, each
// group of cases on an empty store (a new memory store, a new SQLite file, or fresh tables on a
// server). One run uses a secret of its own, as a deployment would.

const secret = 'conformance-secret-of-this-run';

trackerConformanceSuite('tracker + memory store', () => serveTracker(memoryStore(), secret), { secret });

const folder = mkdtempSync(join(tmpdir(), 'resourcery-tracker-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
trackerConformanceSuite('tracker + SQLite', () =>
  serveTracker(sqlStore(`sqlite:${join(folder, `${++files}.sqlite`)}`)),
);

for (const name of ['postgres', 'mariadb'] as const) {
  if (serverAvailable(name)) {
    trackerConformanceSuite(`tracker + ${SERVERS[name].label}`, () => serveTracker(serverStore(name, 'trk')));
  }
}
