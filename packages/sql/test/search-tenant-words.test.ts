// PostgreSQL's words by tenant (search-tenant-words.ts, docs/search.md): a generated column and
// its GIN index, made by `init` and by the DDL, read by a search that names one tenant, required
// by the drift check; the tenant's value written as PostgreSQL writes it (`"orgId"::text`)
// whatever its type and form.
import { type CollectionSchema, type ListQuery, searchWords } from '@resourcery/core/store';
import { schemaSql, sqlStore } from '@resourcery/sql';
import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { onCapturingStore } from './helpers/capturing-db.js';
import { serverAvailable } from './helpers/databases.js';

/** Notes of a tenant of type `type`, searched by title. */
const notes = (name: string, type: 'integer' | 'string' | 'uuid'): CollectionSchema => ({
  name,
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'team', type, nullable: false, ...(type === 'string' ? { maxLength: 40 } : {}) },
    { name: 'title', type: 'string', nullable: false, maxLength: 200 },
  ],
  indexed: ['team'],
  tenant: 'team',
  search: ['title'],
});

/** Team `team`'s notes whose title has a word beginning with each word of `q`, in id order. */
const searchIn = (team: unknown, q: string): ListQuery => ({
  where: [
    { field: 'team', values: [team as string] },
    { field: 'title', values: [], search: { fields: ['title'], words: searchWords(q) } },
  ],
  order: [{ field: 'id', direction: 'asc' }],
  limit: 100,
  offset: 0,
  count: true,
});

describe('the DDL of a search under tenancy', () => {
  it('PostgreSQL keeps and indexes the words after their tenant; SQLite and MariaDB as before', () => {
    const script = schemaSql([notes('notes', 'integer')], 'postgres');
    expect(script.indexOf('CREATE FUNCTION resourcery_tenant_words(tenant text, words tsvector)')).toBeLessThan(
      script.indexOf('CREATE TABLE'),
    );
    expect(script).toContain(
      '"title__tenant_words" tsvector GENERATED ALWAYS AS (resourcery_tenant_words("team"::text, "title__words")) STORED',
    );
    expect(script).toContain(
      'CREATE INDEX IF NOT EXISTS "notes_title__tenant_words_idx" ON "notes" USING gin ("title__tenant_words")',
    );
    expect(script).not.toContain('USING gin ("title__words")');
    expect(schemaSql([notes('notes', 'integer')], 'sqlite')).toContain('USING fts5');
    expect(schemaSql([notes('notes', 'integer')], 'mariadb')).not.toContain('resourcery_tenant_words');
  });
});

describe.runIf(serverAvailable('postgres'))('PostgreSQL: a search within one tenant', () => {
  it('reads the words by tenant, and finds what the words column holds', () =>
    onCapturingStore('postgres', async ({ db, captured, store, tables }) => {
      const schema = notes('notes', 'integer');
      const list = store.collection(schema);
      await store.init([schema]);
      const titles = ['Login crash', 'Crater on the moon', 'login page', "O'Brien's crash\\report"];
      for (const team of [1, 2, 30])
        for (const title of titles) await list.create({ team, title: `${title} (${team})` });
      const found = await list.list(searchIn(3, 'cra'));
      expect(found.records).toEqual([]);
      const mine = await list.list(searchIn(30, 'cra'));
      expect(mine.records.map((record) => record.title)).toEqual([
        'Login crash (30)',
        'Crater on the moon (30)',
        "O'Brien's crash\\report (30)",
      ]);
      expect(mine.total).toBe(3);
      expect((await list.list(searchIn(1, "o'brien report"))).total).toBe(1);
      // The plan: 3,000 more notes of 30 teams, each title a word of its own; a rare prefix in one team.
      await list.createMany?.(
        Array.from({ length: 3_000 }, (_, n) => ({ team: 100 + (n % 30), title: `w${n.toString(36)}x title` })),
      );
      await db.executeQuery(CompiledQuery.raw(`vacuum analyze "${tables}notes"`));
      captured.length = 0;
      expect((await list.list(searchIn(107, 'w7x'))).total).toBe(1);
      // The matches once, for the page and the count (list-total.ts).
      const statement = captured.find((query) => /^with/i.test(query.sql)) as CompiledQuery;
      const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${statement.sql}`, [...statement.parameters]),
      );
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toContain(`${tables}notes_title__tenant_words_idx`);
    }));

  it('writes a uuid tenant as PostgreSQL does (lowercase, hyphens), and a string tenant as it is', () =>
    onCapturingStore('postgres', async ({ store }) => {
      const byUuid = notes('by_uuid', 'uuid');
      const byName = notes('by_name', 'string');
      await store.init([byUuid, byName]);
      const team = '3F2504E0-4F89-11D3-9A0C-0305E82C3301';
      await store.collection(byUuid).create({ team, title: 'Login crash' });
      await store.collection(byName).create({ team: "Team A:1 'x'", title: 'Login crash' });
      for (const form of [team, team.toLowerCase(), `{${team.replaceAll('-', '')}}`]) {
        expect((await store.collection(byUuid).list(searchIn(form, 'cra'))).total, form).toBe(1);
      }
      expect((await store.collection(byName).list(searchIn("Team A:1 'x'", 'cra'))).total).toBe(1);
      expect((await store.collection(byName).list(searchIn('Team A', 'cra'))).total).toBe(0);
    }));

  it('a table made before, with the words column’s own index only, is drift naming the column to add', () =>
    onCapturingStore('postgres', async ({ db, store, tables }) => {
      const schema = notes('notes', 'integer');
      await store.init([schema]);
      const table = `${tables}notes`;
      await db.executeQuery(CompiledQuery.raw(`alter table "${table}" drop column "title__tenant_words"`));
      await db.executeQuery(CompiledQuery.raw(`create index "${table}_old" on "${table}" using gin ("title__words")`));
      const again = sqlStore(db, { tablePrefix: tables });
      await expect(again.init([schema])).rejects.toThrow(
        'no column "title__tenant_words" tsvector GENERATED ALWAYS AS (resourcery_tenant_words("team"::text, "title__words")) STORED',
      );
      // The column added as the message says (PostgreSQL computes it for every row): its index is wanted next.
      await db.executeQuery(
        CompiledQuery.raw(
          `alter table "${table}" add column "title__tenant_words" tsvector generated always as (resourcery_tenant_words("team"::text, "title__words")) stored`,
        ),
      );
      await expect(again.init([schema])).rejects.toThrow(
        `no GIN index on "title__tenant_words" (CREATE INDEX IF NOT EXISTS "${table}_title__tenant_words_idx"`,
      );
    }));
});
