import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStore } from '@resourcery/core';
import { type SqlStoreProvider, sqlStore } from '@resourcery/sql';
import { libraryConformanceSuite } from '@resourcery/testing/suites';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVERS, serverAvailable } from '../../../packages/sql/test/helpers/databases.js';
import { replicatedStore, serveLibrary, serverStore } from './helpers/library-stores.js';

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

// Reads outside transactions on a streaming replica of that PostgreSQL (.ci/replica.sh), writes
// on the primary; after the store wrote, its reads stay on the primary until the replica has
// replayed the write (readYourWrites: 'process', the default), so every case reads what it wrote.
if (serverAvailable('postgres') && serverAvailable('replica')) {
  const stores: SqlStoreProvider[] = [];
  libraryConformanceSuite('library + PostgreSQL, reads on a streaming replica', () =>
    serveLibrary(replicatedStore('librep', stores)),
  );
  describe('library + PostgreSQL, reads on a streaming replica: the replica', () => {
    // (Reads that failed there, when another test stops it meanwhile, ran on the primary.)
    it('served reads', () => {
      const counts = stores.flatMap((store) => store.replicaStatus());
      expect(counts.length).toBeGreaterThan(0);
      expect(counts.reduce((sum, replica) => sum + replica.reads, 0)).toBeGreaterThan(0);
    });
  });
}
