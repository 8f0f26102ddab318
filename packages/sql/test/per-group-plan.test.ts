// A per-group list (a has-many `include` for a page of parents) must read what it returns, not
// every child of the page's parents: one parent here has 3,000 children, and at most 10 per parent
// are asked for. What each database reads is counted (PostgreSQL's EXPLAIN ANALYZE, MariaDB's
// handler counters) or, on SQLite, which has no such counter, read off the plan.
import type { CollectionSchema, ListQuery } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import { CompiledQuery, Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { capturingDb } from './helpers/capturing-db.js';
import { droppingTables, serverAvailable } from './helpers/databases.js';

const BIG = 3000;
const CAP = 10;

function schemas(): [CollectionSchema, CollectionSchema] {
  const parents: CollectionSchema = {
    name: 'parents',
    attributes: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'title', type: 'string', nullable: false, maxLength: 100 },
    ],
    indexed: [],
  };
  const children: CollectionSchema = {
    name: 'children',
    attributes: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'parentId', type: 'integer', nullable: false },
      { name: 'body', type: 'string', nullable: true, maxLength: 100 },
    ],
    indexed: ['parentId'],
    references: [{ field: 'parentId', collection: 'parents', onDelete: 'cascade' }],
  };
  return [parents, children];
}

const QUERY: ListQuery = {
  where: [{ field: 'parentId', values: [1, 2, 3] }],
  order: [{ field: 'id', direction: 'asc' }],
  limit: 3 * CAP,
  offset: 0,
  count: false,
  perGroup: { field: 'parentId', limit: CAP },
};
/** Parent 1 has BIG children, parents 2 and 3 have 5 each: the list answers 20 records. */
const RETURNED = CAP + 5 + 5;

/**
 * Loads the parents and children through a store over `db` (a Kysely instance that records its
 * statements), runs the per-group list, and answers the statement it sent.
 */
// biome-ignore lint/suspicious/noExplicitAny: any database
async function perGroupStatement(db: Kysely<any>, prefix: string, captured: CompiledQuery[]) {
  const [parents, children] = schemas();
  const store = droppingTables(sqlStore(db, { tablePrefix: prefix }), prefix);
  const table = `${prefix}children`;
  store.collection(parents);
  const list = store.collection(children);
  await store.init([parents, children]);
  await db
    .insertInto(`${prefix}parents`)
    .values([{ title: 'A' }, { title: 'B' }, { title: 'C' }])
    .execute();
  const rows: { parentId: number; body: string | null }[] = Array.from({ length: BIG }, (_, i) => ({
    parentId: 1,
    body: `Review ${i}`,
  }));
  for (let i = 0; i < 5; i++) rows.splice(i * 500, 0, { parentId: 2, body: null }, { parentId: 3, body: null });
  for (let at = 0; at < rows.length; at += 500)
    await db
      .insertInto(table)
      .values(rows.slice(at, at + 500))
      .execute();
  captured.length = 0;
  const { records } = await list.list(QUERY);
  expect(records).toHaveLength(RETURNED);
  const statement = captured.find((query) => /^select/i.test(query.sql) && query.sql.includes(table));
  if (!statement) throw new Error('the per-group list sent no statement');
  return { store, statement, table };
}

const prefix = () => `pg${Math.random().toString(36).slice(2, 8)}_`;

describe('a per-group list reads what it returns, not every record of its groups', () => {
  it('SQLite: each group is one index search in id order, stopped by its limit', async () => {
    const { db, captured } = capturingDb('sqlite');
    try {
      const { statement, table } = await perGroupStatement(db, prefix(), captured);
      const plan = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]),
      );
      const details = plan.rows.map((row) => row.detail);
      // One search per group on the (parentId, id) index: its order is the list's, so the
      // limit stops the search; no window ranks every record, no sort of the whole group.
      const searches = details.filter((detail) =>
        new RegExp(`^SEARCH ${table} USING (COVERING )?INDEX ${table}_parentId_idx \\(parentId=\\?\\)$`).test(detail),
      );
      expect(searches, details.join('\n')).toHaveLength(3);
      expect(statement.sql).not.toMatch(/row_number|over\s*\(/i);
      expect(details.filter((detail) => new RegExp(`^SCAN ${table}\\b`).test(detail))).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  if (serverAvailable('postgres')) {
    it('PostgreSQL: the rows read from the table are the rows returned', async () => {
      const { db, captured } = capturingDb('postgres');
      let store: { close(): Promise<void> } | undefined;
      try {
        const found = await perGroupStatement(db, prefix(), captured);
        store = found.store;
        await db.executeQuery(CompiledQuery.raw(`analyze "${found.table}"`));
        const { rows } = await db.executeQuery<{ 'QUERY PLAN': unknown }>(
          CompiledQuery.raw(`explain (analyze, format json) ${found.statement.sql}`, [...found.statement.parameters]),
        );
        let read = 0;
        const visit = (node: Record<string, unknown>) => {
          if (node['Relation Name'] === found.table) read += Number(node['Actual Rows']) * Number(node['Actual Loops']);
          for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) visit(child);
        };
        const [explained] = (rows[0]?.['QUERY PLAN'] ?? []) as { Plan: Record<string, unknown> }[];
        visit(explained?.Plan ?? {});
        // EXPLAIN gives each node's rows per loop, rounded: up to one more per group.
        expect(read).toBeGreaterThanOrEqual(RETURNED);
        expect(read).toBeLessThanOrEqual(RETURNED + 3);
      } finally {
        await store?.close();
        await db.destroy().catch(() => {});
      }
    });
  }

  if (serverAvailable('mariadb')) {
    it('MariaDB: the rows its handlers read stay near the rows returned', async () => {
      const { db, captured } = capturingDb('mariadb');
      let store: { close(): Promise<void> } | undefined;
      try {
        const found = await perGroupStatement(db, prefix(), captured);
        store = found.store;
        const reads = async () => {
          const { rows } = await db.executeQuery<{ Variable_name: string; Value: string }>(
            CompiledQuery.raw(`show session status like 'Handler_read%'`),
          );
          return rows.reduce((sum, row) => sum + Number(row.Value), 0);
        };
        const before = await reads();
        await db.executeQuery(found.statement);
        const read = (await reads()) - before;
        // Each group's rows, then the derived tables and their union read back: a few times the
        // 20 records returned, far from the 3,010 children of the three parents.
        expect(read).toBeLessThan(10 * RETURNED);
      } finally {
        await store?.close();
        await db.destroy().catch(() => {});
      }
    });
  }
});
