// `preparedStatements: false` (or `?preparedStatements=false`): the PostgreSQL store keeps nothing
// on a connection that a transaction pooler would lose. Checked on the server directly, with a
// pool of one connection, so that every statement of the store runs on the connection looked at.
import { sqlStore } from '@resourcery/sql';
import { suiteSchema } from '@resourcery/testing/suites';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { storeParameters } from '../src/store/url-options.js';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';

describe('the store parameters of a PostgreSQL URL', () => {
  it.each([
    ['postgres://db/books?preparedStatements=false', 'postgres://db/books', { preparedStatements: false }],
    ['postgres://db/books?preparedStatements=true', 'postgres://db/books', { preparedStatements: true }],
    [
      'postgres://u:p@db/books?sslmode=require&preparedStatements=false&application_name=api',
      'postgres://u:p@db/books?sslmode=require&application_name=api',
      { preparedStatements: false },
    ],
    ['postgres://db/books?sslmode=require', 'postgres://db/books?sslmode=require', {}],
    ['postgres://db/books', 'postgres://db/books', {}],
  ])('%s', (url, location, options) => {
    expect(storeParameters(url)).toEqual({ location, options });
  });

  it('refuses a value other than true or false', () => {
    expect(() => sqlStore('postgres://db/books?preparedStatements=no')).toThrow(
      'Database URL: preparedStatements takes true or false, not "no"',
    );
  });

  it('refuses lockTimeoutMs, a setting of the connection, without prepared statements', () => {
    expect(() => sqlStore('postgres://db/books?preparedStatements=false', { lockTimeoutMs: 2000 })).toThrow(
      /lockTimeoutMs .* set lock_timeout on the database role instead/,
    );
    expect(() => sqlStore('postgres://db/books', { preparedStatements: false, lockTimeoutMs: 2000 })).toThrow(
      /lockTimeoutMs/,
    );
  });
});

/** What a connection keeps between statements: its prepared statements and its settings. */
interface Kept {
  statements: string[];
  plan_cache_mode: string;
  lock_timeout: string;
  /** `plan_cache_mode` inside a transaction of the store. */
  inTransaction?: string;
}

/** Runs the store's reads and writes, then answers what the (only) connection keeps. */
async function keptAfterUse(url: string): Promise<Kept> {
  const tablePrefix = `p${Math.random().toString(36).slice(2, 8)}_`;
  const store = droppingTables(sqlStore(url, { poolSize: 1, tablePrefix }), tablePrefix);
  try {
    const schema = suiteSchema('kept');
    const books = store.collection(schema);
    await store.init([schema]);
    const created = await books.create({ name: 'Dune', author: 'Herbert', year: 1965 });
    await books.update(created.id, { year: 1966 }, []);
    await books.find(created.id, []);
    await books.list({ where: [], order: [{ field: 'id', direction: 'asc' }], limit: 10, offset: 0, count: true });
    const mode = sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode`;
    const inTransaction = await store.transaction(async (tx) => {
      await tx.collection(schema).find(created.id, []);
      // The transaction's own connection (SqlStoreTransaction's).
      return (await mode.execute((tx as unknown as { db: typeof store.db }).db)).rows[0]?.mode;
    });
    const { rows } = await sql<Kept>`
      select array(select name from pg_prepared_statements order by name) as statements,
        current_setting('plan_cache_mode') as plan_cache_mode, current_setting('lock_timeout') as lock_timeout`.execute(
      store.db,
    );
    return { ...(rows[0] as Kept), inTransaction };
  } finally {
    await store.close();
  }
}

describe('what a connection of the PostgreSQL store keeps', () => {
  if (!serverAvailable('postgres')) return;

  it('by default: named prepared statements, plan_cache_mode and lock_timeout', async () => {
    const kept = await keptAfterUse(SERVERS.postgres.url);
    expect(kept.statements.length).toBeGreaterThan(0);
    expect(kept.statements.every((name) => /^resourcery_\d+$/.test(name))).toBe(true);
    expect(kept).toMatchObject({ plan_cache_mode: 'force_custom_plan', lock_timeout: '5s' });
  });

  it("in a transaction, PostgreSQL's own plan_cache_mode, so that its foreign keys' checks keep their plans", async () => {
    const kept = await keptAfterUse(SERVERS.postgres.url);
    // SET LOCAL: the transaction's, gone at its end.
    expect(kept).toMatchObject({ inTransaction: 'auto', plan_cache_mode: 'force_custom_plan' });
  });

  it("with ?preparedStatements=false: nothing, the server's own settings (here its defaults)", async () => {
    const url = new URL(SERVERS.postgres.url);
    url.searchParams.set('preparedStatements', 'false');
    const kept = await keptAfterUse(url.href);
    expect(kept).toEqual({ statements: [], plan_cache_mode: 'auto', lock_timeout: '0', inTransaction: 'auto' });
  });
});
