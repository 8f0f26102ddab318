// The PostgreSQL store through PgBouncer in transaction mode (.ci/pgbouncer.ini, started by
// .ci/run), which hands each transaction, and each statement outside one, to any of its server
// connections: with `?preparedStatements=false` the whole store suite passes; without it, the
// store says what to set instead of failing at random.
import { sqlStore } from '@resourcery/sql';
import { storeConformanceSuite } from '@resourcery/testing/suites';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVERS, serverAvailable, suiteStores } from './helpers/databases.js';

const FIX = /preparedStatements: false \(or add \?preparedStatements=false to the database URL\)/;

/**
 * A database of this run's own, so that PgBouncer opens a pool of server connections for it that
 * no other test (and no earlier run) has used: which server connection a statement gets is then
 * known (PgBouncer reuses its idle server connections last in, first out).
 */
const PROBE_DATABASE = `pooler_probe_${Math.random().toString(36).slice(2, 8)}`;

/** PgBouncer's URL without the option, on {@link PROBE_DATABASE}. */
function unpreparedUrl(): string {
  const url = new URL(SERVERS.pgbouncer.url);
  url.searchParams.delete('preparedStatements');
  url.pathname = `/${PROBE_DATABASE}`;
  return url.href;
}

/** Runs `statement` directly on the PostgreSQL server behind PgBouncer. */
async function onServer(statement: string): Promise<void> {
  const admin = sqlStore(SERVERS.postgres.url);
  try {
    await sql.raw(statement).execute(admin.db);
  } finally {
    await admin.close();
  }
}

if (serverAvailable('pgbouncer')) {
  const pooled = suiteStores(SERVERS.pgbouncer.url, 'pgb_');
  storeConformanceSuite('PostgreSQL through PgBouncer (transaction mode, preparedStatements=false)', pooled, {
    // As straight to PostgreSQL (postgres-store.test.ts): estimated counts read ANALYZE's statistics.
    analyze: async (schema) => {
      await sql`analyze ${sql.table(`pgb_${schema.name}`)}`.execute(pooled().db);
    },
  });

  describe('through PgBouncer without preparedStatements=false', () => {
    const stores: ReturnType<typeof sqlStore>[] = [];
    /** A store with named prepared statements through PgBouncer (`lockTimeoutMs: 0`: no setting sent, so PgBouncer lets it in). */
    const opened = () => {
      const store = sqlStore(unpreparedUrl(), { lockTimeoutMs: 0 });
      stores.push(store);
      return store;
    };
    beforeAll(() => onServer(`create database ${PROBE_DATABASE}`));
    afterAll(async () => {
      await Promise.all(stores.map((store) => store.close()));
      await onServer(`drop database if exists ${PROBE_DATABASE} with (force)`); // PgBouncer's connections too
    });

    it('fails with an error that names the option: PgBouncer refuses lock_timeout when connecting', async () => {
      const store = sqlStore(unpreparedUrl());
      stores.push(store);
      const failure = sql`select 1 as one`.execute(store.db);
      await expect(failure).rejects.toThrow(FIX);
      await expect(failure).rejects.toThrow(/unsupported startup parameter: lock_timeout/);
    });

    it('names the option when a statement is already prepared on the server connection PgBouncer picked', async () => {
      const [first, second] = [opened(), opened()];
      const statement = sql`select 'already there' as probe`;
      expect((await statement.execute(first.db)).rows).toEqual([{ probe: 'already there' }]);
      // Another client, which has not prepared it, gets the server connection `first` prepared it on.
      await expect(statement.execute(second.db)).rejects.toThrow(FIX);
    });

    it('names the option when a statement prepared on one server connection runs on another', async () => {
      const [first, second] = [opened(), opened()];
      const statement = sql`select 'gone' as probe`;
      expect((await statement.execute(first.db)).rows).toEqual([{ probe: 'gone' }]);
      // `second` holds that server connection in a transaction: `first` gets another one.
      await second.transaction(async () => {
        await expect(statement.execute(first.db)).rejects.toThrow(FIX);
      });
    });
  });
}
