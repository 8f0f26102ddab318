// The SQL fast path (src/execute/): the store's own connections keep statements prepared and run
// them without Kysely's layers outside transactions; a Kysely instance the application opened
// gets none of it. Each path is observed from outside: by the statements better-sqlite3
// prepares, by the calls that reach Kysely's executor, by what PostgreSQL holds prepared.
import { sqlStore } from '@resourcery/sql';
import { suiteSchema } from '@resourcery/testing/suites';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SqliteConnection } from '../src/execute/sqlite-connection.js';
import { oneOff } from '../src/execute/statement-cache.js';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';

afterEach(() => vi.restoreAllMocks());

const schema = suiteSchema('fast');

describe('the SQLite connection', () => {
  it('prepares a text once, a one-off text and a statement still iterating each time', () => {
    const connection = new SqliteConnection(new Database(':memory:'), 5000);
    try {
      const first = connection.prepare('select 1 as one');
      expect(connection.prepare('select 1 as one')).toBe(first);
      const once = oneOff({
        sql: 'select 2 as two',
        parameters: [],
        query: undefined as never,
        queryId: undefined as never,
      });
      expect(connection.prepare(once.sql)).not.toBe(connection.prepare(once.sql));
      const iterating = connection.prepare('select 3 as three union all select 4');
      const rows = iterating.iterate([]);
      rows.next();
      expect(connection.prepare('select 3 as three union all select 4')).not.toBe(iterating);
      rows.return?.();
    } finally {
      connection.close();
    }
  });
});

describe("the store's own SQLite database", () => {
  it('runs reads and writes outside transactions without Kysely (sqlite-store.test.ts: and waits for an open one), each text prepared once', async () => {
    const prepare = vi.spyOn(Database.prototype, 'prepare');
    const store = sqlStore('sqlite::memory:');
    await store.init([schema]);
    const books = store.collection(schema);
    const executed = vi.spyOn(store.db, 'executeQuery');
    const { id } = await books.create({ name: 'Dune', author: 'Herbert' });
    await books.find(id, []);
    const prepared = prepare.mock.calls.length;
    for (let i = 0; i < 5; i++) {
      await books.find(id, []);
      await books.update(id, { year: 1965 + i }, []);
    }
    expect(prepare.mock.calls.length - prepared).toBe(1); // the update's text, the first time
    expect(executed).not.toHaveBeenCalled();
    await store.close();
  });

  it('is not reached for a Kysely instance the application opened: Kysely runs every statement', async () => {
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    const store = sqlStore(db);
    await store.init([schema]);
    const executed = vi.spyOn(db, 'executeQuery');
    const { id } = await store.collection(schema).create({ name: 'Dune', author: 'Herbert' });
    await store.collection(schema).find(id, []);
    expect(executed.mock.calls.length).toBeGreaterThanOrEqual(2);
    await db.destroy();
  });
});

describe("the store's own PostgreSQL pool", () => {
  if (!serverAvailable('postgres')) return;

  it('runs statements outside transactions without Kysely, and prepares again a statement whose table changed', async () => {
    const tablePrefix = `f${Math.random().toString(36).slice(2, 8)}_`;
    const store = droppingTables(sqlStore(SERVERS.postgres.url, { poolSize: 1, tablePrefix }), tablePrefix);
    try {
      await store.init([schema]);
      const books = store.collection(schema);
      const executed = vi.spyOn(store.db, 'executeQuery');
      const { id } = await books.create({ name: 'Dune', author: 'Herbert', year: 1965 });
      expect(await books.find(id, [])).toMatchObject({ year: 1965 });
      expect(executed).not.toHaveBeenCalled();
      executed.mockRestore();
      // The prepared show now answers a column of another type: PostgreSQL refuses to run it
      // again (0A000); the store prepares it anew, under a new name, on that connection.
      await sql`alter table ${sql.table(`${tablePrefix}${schema.name}`)} alter column "year" type integer`.execute(
        store.db,
      );
      expect(await books.find(id, [])).toMatchObject({ year: 1965 });
      expect(await books.find(id, [])).toMatchObject({ year: 1965 });
      const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(store.db);
      expect(rows.some((row) => /^resourcery_\d+_1$/.test(row.name))).toBe(true);
    } finally {
      await store.close();
    }
  });
});
