// A search's page and its exact count on PostgreSQL read the matches once (list-total.ts,
// matchedPage): the words are looked up and tested once for both, not once for the page and
// again for the count (docs/performance.md, "The tracker at 1M issues", third round).

import { searchWords } from '@resourcery/core/store';
import { searchSchema } from '@resourcery/testing/suites';
import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { onCapturingStore } from './helpers/capturing-db.js';
import { serverAvailable } from './helpers/databases.js';

const ROWS = 2000;

describe('a search page and its count on PostgreSQL', () => {
  if (!serverAvailable('postgres')) return;

  it('look the words up once, and count every match', () =>
    onCapturingStore('postgres', async ({ db, captured, store, tables: prefix }) => {
      const schema = searchSchema('notes');
      const notes = store.collection(schema);
      await store.init([schema]);
      // Every 7th note says "bucket" (286 of them), the others "other".
      await notes.createMany?.(
        Array.from({ length: ROWS }, (_, i) => ({
          title: `Note ${i}`,
          body: i % 7 === 0 ? 'bucket' : 'other',
          rank: i,
        })),
      );
      const table = `${prefix}notes`;
      await db.executeQuery(CompiledQuery.raw(`analyze "${table}"`));
      captured.length = 0;
      const where = [{ field: 'title', values: [], search: { fields: ['title', 'body'], words: searchWords('buck') } }];
      const order = [{ field: 'id', direction: 'desc' as const }];
      const page = await notes.list({ where, order, limit: 25, offset: 50, count: true });
      expect(page.total).toBe(Math.ceil(ROWS / 7));
      expect(page.records.map((record) => record.id)).toEqual(
        Array.from({ length: ROWS }, (_, i) => i + 1)
          .filter((id) => (id - 1) % 7 === 0)
          .reverse()
          .slice(50, 75),
      );
      const statement = captured.find((query) => /^with/i.test(query.sql));
      if (!statement) throw new Error(`no statement with its matches: ${captured.map((query) => query.sql)}`);
      const { rows } = await db.executeQuery<{ 'QUERY PLAN': unknown }>(
        CompiledQuery.raw(`explain (format json) ${statement.sql}`, [...statement.parameters]),
      );
      // The nodes that read the table and test the words (a sequential scan's filter, a bitmap
      // scan's recheck): one, where the page and the count each had theirs.
      let reads = 0;
      const visit = (node: Record<string, unknown>) => {
        const tests = `${node.Filter ?? ''} ${node['Recheck Cond'] ?? ''}`;
        if (node['Relation Name'] === table && tests.includes('@@')) reads++;
        for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) visit(child);
      };
      const [explained] = (rows[0]?.['QUERY PLAN'] ?? []) as { Plan: Record<string, unknown> }[];
      visit(explained?.Plan ?? {});
      expect(reads, JSON.stringify(explained?.Plan)).toBe(1);
    }));
});
