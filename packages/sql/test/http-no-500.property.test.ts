import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SqlStoreProvider, sqlStore } from '@resourcery/sql';
import { afterAll } from 'vitest';
import { neverA500Suite } from '../../../test-support/never-500-suite.js';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';

// The never-a-500 properties (test-support/never-500-suite.ts) on the SQL stores, as the memory
// store runs them in packages/express/test/http-no-500.property.test.ts.

const RUNS = 120;

interface Target {
  label: string;
  open: () => SqlStoreProvider;
}

const folder = mkdtempSync(join(tmpdir(), 'resourcery-no500-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const targets: Target[] = [{ label: 'SQLite', open: () => sqlStore(`sqlite:${join(folder, 'books.sqlite')}`) }];
if (serverAvailable('postgres')) {
  targets.push({
    label: 'PostgreSQL',
    open: () => {
      const tablePrefix = `p500${Math.random().toString(36).slice(2, 8)}_`;
      return droppingTables(sqlStore(SERVERS.postgres.url, { tablePrefix }), tablePrefix);
    },
  });
}

for (const { label, open } of targets) neverA500Suite(label, open, RUNS);
