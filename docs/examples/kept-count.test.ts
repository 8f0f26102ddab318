// The tickets of kept-count.ts on PostgreSQL (where the count is kept) and on SQLite (where it is
// counted): the same answers; on PostgreSQL the whole list's count reads the counts table, and a
// filtered list's counts the tickets, and the counts table is what docs/stores.md shows.
import { readFileSync } from 'node:fs';
import { type Store } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import { callApi } from '@resourcery/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from '../../e2e/helpers/fresh-database.js';
import { serverAvailable } from '../../packages/sql/test/helpers/databases.js';
import { ticketsApi } from './kept-count.js';

async function answers(store: Store) {
  const api = ticketsApi(store);
  const call = (org: number, method: string, path: string, body?: unknown) =>
    callApi(api, { method, path, headers: { 'x-org': String(org) }, ...(body === undefined ? {} : { body }) });
  for (const org of [1, 1, 1, 2]) await call(org, 'POST', '/tickets', { ticket: { title: `For ${org}` } });
  expect((await call(1, 'DELETE', '/tickets/1')).status).toBe(204); // archived: no longer counted
  const total = async (org: number, query = '') =>
    (await call(org, 'GET', `/tickets${query}`)).headers['X-Total-Count'];
  return {
    one: await total(1),
    two: await total(2),
    filtered: await total(1, '?filter[title]=For 1'),
    archived: await total(1, '?archived=true'),
    restored: (await call(1, 'PATCH', '/tickets/1?archived=true', { ticket: { archivedAt: null } })).status,
    after: await total(1),
  };
}

/** What both databases answer: two of organization 1's three tickets once one is archived, and so on. */
const ANSWERS = { one: '2', two: '1', filtered: '2', archived: '3', restored: 200, after: '3' };

describe('a kept count', () => {
  it('SQLite counts: the answers a kept count must give', async () => {
    const store = sqlStore('sqlite::memory:');
    try {
      expect(await answers(store)).toEqual(ANSWERS);
    } finally {
      await store.close();
    }
  });

  it.runIf(serverAvailable('postgres'))(
    'PostgreSQL keeps it: the same answers, read from tickets__counts',
    async () => {
      const { url, drop } = await freshPostgresDatabase('kept_count');
      const store = sqlStore(url);
      try {
        expect(await answers(store)).toEqual(ANSWERS);
        const { rows } = await sql<{ orgId: string; live: string }>`select "orgId", sum(live) as live
        from tickets__counts group by 1 order by 1`.execute(store.db);
        expect(rows).toEqual([
          { orgId: '1', live: '3' },
          { orgId: '2', live: '1' },
        ]);
        const page = readFileSync(new URL('../stores.md', import.meta.url), 'utf8');
        const shown = /```sql\n\s*(CREATE TABLE "tickets__counts"[^\n]*)\n/.exec(page)?.[1];
        const { rows: columns } = await sql<{ definition: string }>`select string_agg(
          '"' || attname || '" ' || upper(format_type(atttypid, atttypmod)) || ' NOT NULL', ', ' order by attnum) as definition
        from pg_attribute where attrelid = 'tickets__counts'::regclass and attnum > 0`.execute(store.db);
        expect(shown).toBe(
          `CREATE TABLE "tickets__counts" (${columns[0]?.definition}, PRIMARY KEY ("orgId", "shard"));`,
        );
      } finally {
        await store.close();
        await drop();
      }
    },
  );
});
