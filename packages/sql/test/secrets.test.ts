// Store.secret on the SQL stores: one value per name for every store instance (every process) on
// one database, kept across restarts, made safely when several ask at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SqlStoreProvider, sqlStore } from '@resourcery/sql';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVERS, serverAvailable } from './helpers/databases.js';

const folder = mkdtempSync(join(tmpdir(), 'resourcery-secrets-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** A way to open stores that all reach the same database and table prefix, and to clean up after them. */
interface Target {
  readonly label: string;
  open(): SqlStoreProvider;
  drop(store: SqlStoreProvider): Promise<void>;
}

const run = Math.random().toString(36).slice(2, 8);
const targets: Target[] = [
  {
    label: 'SQLite',
    open: () => sqlStore(`sqlite:${join(folder, 'secrets.sqlite')}`),
    drop: async () => {},
  },
];
for (const name of ['postgres', 'mariadb'] as const) {
  if (!serverAvailable(name)) continue;
  const tablePrefix = `sec${run}_`;
  targets.push({
    label: SERVERS[name].label,
    open: () => sqlStore(SERVERS[name].url, { tablePrefix }),
    drop: async (store) => {
      await store.db.schema.dropTable(`${tablePrefix}resourcery_secrets`).ifExists().execute();
    },
  });
}

describe('SQL stores: secret(name)', () => {
  for (const target of targets) {
    it(`${target.label}: two store instances answer the same secret, a new name a new one, and a restart keeps them`, async () => {
      const stores = [target.open(), target.open()];
      const [first, second] = stores as [SqlStoreProvider, SqlStoreProvider];
      try {
        // Both ask at once, before either table or value exists: one value wins for both.
        const [a, b] = await Promise.all([first.secret('cursor'), second.secret('cursor')]);
        expect(a).toMatch(SECRET);
        expect(b).toBe(a);
        expect(await first.secret('cursor')).toBe(a);
        const other = await second.secret('etag');
        expect(other).toMatch(SECRET);
        expect(other).not.toBe(a);
        expect(await first.secret('etag')).toBe(other);
        expect(await first.secret('Cursor')).not.toBe(a); // names compare exactly
        await Promise.all(stores.splice(0).map((store) => store.close()));
        const third = target.open();
        stores.push(third);
        expect(await third.secret('cursor')).toBe(a);
        expect(await third.secret('etag')).toBe(other);
        await expect(third.secret('')).rejects.toThrow(TypeError);
        await target.drop(third);
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    });
  }

  it('keeps the table under the store tablePrefix (SQLite)', async () => {
    const store = sqlStore(`sqlite:${join(folder, 'prefixed.sqlite')}`, { tablePrefix: 'app_' });
    try {
      const secret = await store.secret('cursor');
      const rows = await store.db.selectFrom('app_resourcery_secrets').select(['name', 'value']).execute();
      expect(rows).toEqual([{ name: 'cursor', value: secret }]);
    } finally {
      await store.close();
    }
  });
});
