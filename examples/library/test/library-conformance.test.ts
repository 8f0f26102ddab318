import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStore } from '@resourcery/core';
import { sqlStore } from '@resourcery/sql';
import { libraryConformanceSuite } from '@resourcery/testing/suites';
import { afterAll } from 'vitest';
import { SERVERS, serverAvailable } from '../../../packages/sql/test/helpers/databases.js';
import { serveLibrary, serverStore } from './helpers/library-stores.js';

// CONTRACT part 3 over real HTTP, on every store: the example's own app, each group of cases on
// an empty store (a new memory store, a new SQLite file, or fresh tables on a server).

libraryConformanceSuite('library + memory store', () => serveLibrary(memoryStore()));

const folder = mkdtempSync(join(tmpdir(), 'resourcery-library-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
libraryConformanceSuite('library + SQLite', () =>
  serveLibrary(sqlStore(`sqlite:${join(folder, `${++files}.sqlite`)}`)),
);

for (const name of ['postgres', 'mariadb'] as const) {
  if (serverAvailable(name)) {
    libraryConformanceSuite(`library + ${SERVERS[name].label}`, () => serveLibrary(serverStore(name, 'lib')));
  }
}
