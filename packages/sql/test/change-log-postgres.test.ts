// PostgreSQL's wake-ups across processes: two stores on one database (two processes, as far as
// the log knows), one LISTEN connection each; a change committed through one wakes the other's
// watchers through NOTIFY (their polls are made too slow to), also when the listening connection
// was killed meanwhile (it connects again and wakes its watchers).
import type { ChangeLog, CollectionSchema } from '@resourcery/core/store';
import { type SqlStoreProvider, sqlStore } from '@resourcery/sql';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';

const schema: CollectionSchema = {
  name: 'issues',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'title', type: 'string', nullable: false, maxLength: 200 },
  ],
  indexed: [],
  live: true,
};

/** Resolves at the first wake of `log` for which `until` answers true. */
function wakes(log: ChangeLog, until: () => Promise<boolean>, ms = 10_000) {
  let stop = () => {};
  const woken = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not woken within ${ms} ms`)), ms);
    stop = log.watch(() => {
      void until().then((done) => {
        if (!done) return;
        clearTimeout(timer);
        resolve();
      }, reject);
    });
  });
  return { woken, stop };
}

if (serverAvailable('postgres')) {
  describe('PostgreSQL: change log across processes', () => {
    const tablePrefix = `l${Math.random().toString(36).slice(2, 8)}_`;
    // Polls slower than any test: only NOTIFY (or a reconnection) wakes the watchers.
    const options = { tablePrefix, changes: { pollMs: 600_000 } };
    let writer: SqlStoreProvider;
    let reader: SqlStoreProvider;

    beforeAll(async () => {
      writer = droppingTables(sqlStore(SERVERS.postgres.url, options), tablePrefix);
      reader = sqlStore(SERVERS.postgres.url, options);
      writer.collection(schema);
      await writer.init([schema]);
      reader.collection(schema);
      await reader.init([schema]);
    });
    afterAll(async () => {
      await reader?.close();
      await writer?.close();
    });

    /** Watches the reader's log until it holds the change of the record titled `title`. */
    const readerSees = (title: string) => {
      const log = reader.changes();
      return wakes(log, async () => {
        const page = await log.read(0, 1000);
        return page !== 'gone' && page.some((change) => change.after?.title === title);
      });
    };

    /** Waits for the reader's LISTEN connection to be there (its first wake comes once it listens). */
    const listening = async () => {
      const { woken, stop } = wakes(reader.changes(), async () => true);
      await woken;
      return stop;
    };

    it('a change committed through one store wakes the other, which reads it', async () => {
      const stopFirst = await listening();
      const { woken, stop } = readerSees('through the writer');
      try {
        await writer.collection(schema).create({ title: 'through the writer' });
        await woken;
      } finally {
        stop();
        stopFirst();
      }
    });

    it('the listening connection killed while a change commits: the watcher gets it after reconnecting', async () => {
      const stopFirst = await listening();
      const { woken, stop } = readerSees('while reconnecting');
      try {
        const channel = `LISTEN "${tablePrefix}resourcery_changes"`;
        const killed = await sql<{ pid: number }>`select pg_terminate_backend(pid) as pid from pg_stat_activity
          where query = ${channel} and datname = current_database()`.execute(writer.db);
        expect(killed.rows).toHaveLength(1);
        await writer.collection(schema).create({ title: 'while reconnecting' });
        await woken;
      } finally {
        stop();
        stopFirst();
      }
    });
  });
}
