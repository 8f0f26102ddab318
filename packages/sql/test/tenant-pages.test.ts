// A tenant's pages at scale (docs/performance.md, "The tracker at 1M issues"): the partial index
// PostgreSQL gives a resource that archives under tenancy, which a table made before it may lack,
// and a page past the first, which reads the rows of the records it returns and no others.
import type { CollectionSchema, ListQuery } from '@resourcery/core/store';
import { createTableSql, sqlStore } from '@resourcery/sql';
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { capturingDb } from './helpers/capturing-db.js';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';

const key = (...fields: string[]) => fields.map((field) => ({ field, direction: 'asc' as const }));

/** Issues of an organization (the tenant) that archive, as `resourceSchemas` gives them under tenancy. */
const issues: CollectionSchema = {
  name: 'issues',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'orgId', type: 'integer', nullable: false },
    { name: 'title', type: 'string', nullable: false, maxLength: 100 },
    { name: 'archivedAt', type: 'date-time', nullable: true },
  ],
  indexed: ['orgId', 'archivedAt'],
  indexes: [key('orgId', 'id', 'archivedAt')],
  tenant: 'orgId',
  archive: 'archivedAt',
};

const LIVE = 'CREATE INDEX IF NOT EXISTS "issues_orgId_live_idx" ON "issues" ("orgId") WHERE "archivedAt" IS NULL';

/** Organization 1's records that are not archived, newest first: the page after `offset` of them. */
const page = (offset: number): ListQuery => ({
  where: [
    { field: 'orgId', values: [1] },
    { field: 'archivedAt', values: [null] },
  ],
  order: [{ field: 'id', direction: 'desc' }],
  limit: 25,
  offset,
  count: false,
});

const ROWS = 30_000;
/** Organizations: the first holds one row in 20, so that reading the table in id order is no cheaper than its index. */
const ORGS = 20;
/** The ids of the first organization's records that are not archived, in id order. */
const FIRST = Array.from({ length: ROWS }, (_, i) => i)
  .filter((i) => i % ORGS === 0 && i % 50 !== 0)
  .map((i) => i + 1);
const OFFSET = 500;

/** 30,000 issues of 20 organizations, one after the other, every 50th archived; answers the table. */
// biome-ignore lint/suspicious/noExplicitAny: any database
async function loaded(db: Kysely<any>, prefix: string) {
  const store = droppingTables(sqlStore(db, { tablePrefix: prefix }), prefix);
  const list = store.collection(issues);
  await store.init([issues]);
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    orgId: 1 + (i % ORGS),
    title: `Issue ${i}`,
    archivedAt: i % 50 === 0 ? new Date(Date.UTC(2025, 0, 1)).toISOString() : null,
  }));
  for (let at = 0; at < ROWS; at += 500)
    await db
      .insertInto(`${prefix}issues`)
      .values(rows.slice(at, at + 500))
      .execute();
  return { store, list, table: `${prefix}issues` };
}

const prefix = () => `tp${Math.random().toString(36).slice(2, 8)}_`;

describe('the partial index of a tenant’s records that are not archived', () => {
  it('PostgreSQL makes it; SQLite, MySQL and MariaDB do not', () => {
    expect(createTableSql(issues, 'postgres')).toContain(LIVE);
    for (const dialect of ['sqlite', 'mysql', 'mariadb'] as const) {
      expect(createTableSql(issues, dialect).join('\n')).not.toMatch(/live|WHERE/);
    }
    // Without tenancy, or without an archive, there is none.
    const { tenant, ...untenanted } = issues;
    const { archive, ...unarchived } = issues;
    expect(createTableSql(untenanted, 'postgres').join('\n')).not.toContain('live');
    expect(createTableSql(unarchived, 'postgres').join('\n')).not.toContain('live');
  });

  if (serverAvailable('postgres')) {
    it('PostgreSQL: a table made before it starts as it is, and a count of a tenant reads it', async () => {
      const pool = new pg.Pool({ connectionString: SERVERS.postgres.url, max: 1 });
      const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
      const tables = prefix();
      let store: { close(): Promise<void> } | undefined;
      try {
        const found = await loaded(db, tables);
        store = found.store;
        const partial = await db.executeQuery<{ definition: string }>(
          CompiledQuery.raw(`select indexdef as definition from pg_indexes where tablename = '${found.table}'`),
        );
        expect(partial.rows.map((row) => row.definition)).toContainEqual(
          expect.stringMatching(/\("orgId"\) WHERE \("archivedAt" IS NULL\)$/),
        );
        await db.executeQuery(CompiledQuery.raw(`vacuum analyze "${found.table}"`));
        const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain select count(*) from "${found.table}" where "orgId" = 1 and "archivedAt" is null`),
        );
        expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toContain(`${tables}issues_orgId_live_idx`);
        // A table made before the index: no drift, the store starts and answers as before.
        await db.executeQuery(CompiledQuery.raw(`drop index "${tables}issues_orgId_live_idx"`));
        const again = sqlStore(db, { tablePrefix: tables });
        const list = again.collection(issues);
        await again.init([issues]);
        expect((await list.list({ ...page(0), count: true })).total).toBe(FIRST.length);
      } finally {
        await store?.close();
        await db.destroy().catch(() => {});
      }
    });
  }
});

describe('a page past the first reads the rows of its records only', () => {
  it('SQLite: the ids of the page from an index alone, then their rows by key', async () => {
    const { db, captured } = capturingDb('sqlite');
    try {
      const { list, table } = await loaded(db, prefix());
      captured.length = 0;
      const { records } = await list.list(page(OFFSET));
      expect(records.map((record) => record.id)).toEqual([...FIRST].reverse().slice(OFFSET, OFFSET + 25));
      const statement = captured.find((query) => /^select/i.test(query.sql)) as CompiledQuery;
      const plan = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]),
      );
      const details = plan.rows.map((row) => row.detail);
      expect(details, details.join('\n')).toContainEqual(`SEARCH ${table} USING INTEGER PRIMARY KEY (rowid=?)`);
      expect(details.filter((detail) => detail.includes(`SEARCH ${table} USING INDEX`))).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  if (serverAvailable('postgres')) {
    it('PostgreSQL: the rows read from the table are the 25 returned, not the 500 skipped', async () => {
      const { db, captured } = capturingDb('postgres');
      let store: { close(): Promise<void> } | undefined;
      try {
        const found = await loaded(db, prefix());
        store = found.store;
        // The count's partial index aside: with it, this small table's page may take the
        // organization's 1,200 records from it and sort them, which reads them all.
        await db.executeQuery(CompiledQuery.raw(`drop index "${found.table}_orgId_live_idx"`));
        await db.executeQuery(CompiledQuery.raw(`vacuum analyze "${found.table}"`));
        captured.length = 0;
        expect((await found.list.list(page(OFFSET))).records).toHaveLength(25);
        const statement = captured.find((query) => /^select/i.test(query.sql)) as CompiledQuery;
        const { rows } = await db.executeQuery<{ 'QUERY PLAN': unknown }>(
          CompiledQuery.raw(`explain (analyze, format json) ${statement.sql}`, [...statement.parameters]),
        );
        // The rows of the table each node read (an index-only scan reads none of them).
        let read = 0;
        const visit = (node: Record<string, unknown>) => {
          if (node['Relation Name'] === found.table && node['Node Type'] !== 'Index Only Scan') {
            const removed = Number(node['Rows Removed by Filter'] ?? 0);
            read += (Number(node['Actual Rows']) + removed) * Number(node['Actual Loops']);
          }
          for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) visit(child);
        };
        const [explained] = (rows[0]?.['QUERY PLAN'] ?? []) as { Plan: Record<string, unknown> }[];
        visit(explained?.Plan ?? {});
        expect(read, JSON.stringify(explained?.Plan)).toBe(25);
      } finally {
        await store?.close();
        await db.destroy().catch(() => {});
      }
    });
  }
});
