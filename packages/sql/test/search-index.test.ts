import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CollectionSchema, searchWords } from '@resourcery/core/store';
import { createTablesMigration, type SqlDialect, schemaSql } from '@resourcery/sql';
import { searchSchema } from '@resourcery/testing/suites';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { dialectNamed } from '../src/dialects/index.js';
import { searchMatches } from '../src/query/search-sql.js';
import { testDatabases } from './helpers/databases.js';

// The index the SQL stores keep for `q=` (docs/search.md): made by `init` and by the migrations'
// DDL, checked by the drift check, written on every write path, and used by the database's plan
// (EXPLAIN at 100,000 rows on PostgreSQL, SQLite and MariaDB; rows of a realistic width, written with the
// words the store would write, in one statement for speed).

const folder = mkdtempSync(join(tmpdir(), 'resourcery-search-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The same collection before it declared `search`. */
function withoutSearch(schema: CollectionSchema): CollectionSchema {
  const { search: _, ...rest } = schema;
  return rest;
}

/** The search condition of `q` on both fields. */
const searchOf = (q: string) => ({ fields: ['title', 'body'], words: searchWords(q) });

describe('the search index in the DDL', () => {
  it.each(['sqlite', 'postgres', 'mysql', 'mariadb'] as SqlDialect[])('%s: schemaSql writes it', (dialect) => {
    const script = schemaSql([searchSchema('notes')], dialect);
    expect(script).toMatch(/title__words/);
    expect(script).toMatch(/body__words/);
    if (dialect === 'postgres') expect(script).toMatch(/USING gin \("title__words"\)/);
    if (dialect === 'sqlite') expect(script).toMatch(/CREATE VIRTUAL TABLE IF NOT EXISTS "notes__search" USING fts5/);
    if (dialect === 'mysql' || dialect === 'mariadb') {
      expect(script).toMatch(/CREATE TABLE IF NOT EXISTS `notes__words`/);
      expect(script).toMatch(/PRIMARY KEY \(`word`, `field`, `record_id`\)/);
    }
    expect(schemaSql([searchSchema('notes', true)], dialect)).toMatch(/title__words/);
  });
});

describe.each(testDatabases(folder))('the search index on $label', (database) => {
  it('init makes it; the drift check refuses a table made before search was declared', async () => {
    const { store, tablePrefix } = database.open();
    try {
      const schema = searchSchema('drift');
      store.collection(schema);
      await store.init([withoutSearch(schema)]);
      await expect(store.init([schema])).rejects.toThrow(/title__words/);
      const fresh = searchSchema('fresh');
      const notes = store.collection(fresh);
      await store.init([fresh]);
      const note = await notes.create({ title: 'Indexed words', body: 'all of them', rank: 1 });
      const { db } = store;
      const table = `${tablePrefix}fresh`;
      const row = await db.selectFrom(table).select(['title__words', 'body__words']).executeTakeFirstOrThrow();
      const words = String(row.title__words);
      expect(words).toMatch(/indexed/);
      expect(words).toMatch(/words/);
      if (store.dialect === 'mysql' || store.dialect === 'mariadb') {
        const rows = await db.selectFrom(`${table}__words`).select(['field', 'word']).orderBy('word').execute();
        expect(rows).toEqual([
          { field: 'body', word: 'all' },
          { field: 'title', word: 'indexed' },
          { field: 'body', word: 'of' },
          { field: 'body', word: 'them' },
          { field: 'title', word: 'words' },
        ]);
        await notes.destroy(note.id, []);
        expect(await db.selectFrom(`${table}__words`).select('word').execute()).toEqual([]);
      }
    } finally {
      await store.close();
    }
  });
});

describe.each(testDatabases(folder))('the search index by migrations on $label', (database) => {
  // The tables' migration itself, without Kysely's Migrator (whose look-up of every table of the
  // database races with the other test files dropping theirs on a shared server).
  it('the migration of the tables makes it, and undoing it removes it', async () => {
    const { store, tablePrefix } = database.open({ createTables: false });
    const schema = searchSchema('migrated');
    const notes = store.collection(schema);
    const migration = createTablesMigration([schema], { tablePrefix });
    const table = `${tablePrefix}migrated`;
    const left = async () => {
      const dialect = dialectNamed(store.dialect);
      const names = [table, `${table}__words`, `${table}__search`];
      const found = await Promise.all(
        names.map(async (name) => (await dialect.describeColumns(store.db, name)).length),
      );
      return names.filter((_, at) => (found[at] ?? 0) > 0);
    };
    try {
      await migration.up(store.db);
      await store.init([schema]); // the drift check finds the search's columns and index
      const note = await notes.create({ title: 'Migrated words', body: null, rank: 1 });
      const page = await notes.list({
        where: [{ field: 'title', values: [], search: searchOf('migr') }],
        order: [],
        limit: 5,
        offset: 0,
        count: true,
      });
      expect(page).toEqual({ records: [note], total: 1 });
      expect(await left()).toContain(table);
      await migration.down?.(store.db);
      expect(await left()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

const ROWS = 100_000;

describe.each(testDatabases(folder))('the plan of a search on $label at 100,000 rows', (database) => {
  it('reads the index, not the table', async () => {
    const { store, tablePrefix } = database.open();
    try {
      const schema = searchSchema('plan');
      store.collection(schema);
      await store.init([schema]);
      const { db } = store;
      const table = `${tablePrefix}plan`;
      const dialect = dialectNamed(store.dialect);
      if (store.dialect === 'postgres') {
        await sql`insert into ${sql.table(table)} (title, body, rank, title__words, body__words)
            select 'Issue W' || i, repeat('Lorem ipsum dolor ', 40) || 'bucket' || (i % 100), i % 4,
              array_to_tsvector(array['issue', 'w' || i::text]),
              array_to_tsvector(array['lorem', 'ipsum', 'dolor', 'bucket' || (i % 100)::text])
            from generate_series(1, ${ROWS}) as i`.execute(db);
        await sql`analyze ${sql.table(table)}`.execute(db);
      } else if (store.dialect === 'mariadb' || store.dialect === 'mysql') {
        await sql`insert into ${sql.table(table)} (title, body, rank, title__words, body__words)
            select concat('Issue W', seq), concat('Lorem ipsum dolor bucket', seq % 100), seq % 4,
              concat(' issue w', seq), concat(' lorem ipsum dolor bucket', seq % 100)
            from seq_1_to_100000`.execute(db);
        const words = `${table}__words`;
        for (const [field, word] of [
          ['title', `'issue'`],
          ['title', `concat('w', id)`],
          ['body', `'lorem'`],
          ['body', `concat('bucket', id % 100)`],
        ]) {
          await sql`insert into ${sql.table(words)} (record_id, field, word)
              select id, ${field}, ${sql.raw(word as string)} from ${sql.table(table)}`.execute(db);
        }
        await sql`analyze table ${sql.table(table)}, ${sql.table(words)}`.execute(db);
      } else {
        await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${ROWS})
            insert into ${sql.table(table)} (title, body, rank, title__words, body__words)
            select 'Issue W' || i, 'Lorem ipsum dolor bucket' || (i % 100), i % 4, ' issue w' || i,
              ' lorem ipsum dolor bucket' || (i % 100) from n`.execute(db);
      }
      const query = db
        .selectFrom(table)
        .select('id')
        .where((eb) => searchMatches(eb, schema, table, searchOf('W1234 bucket3'), dialect))
        .compile();
      const explain = store.dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
      const { rows } = await db.executeQuery({ ...query, sql: `${explain}${query.sql}` });
      const plan = rows.map((row) => Object.values(row as object).join(' ')).join('\n');
      if (store.dialect === 'postgres') {
        expect(plan).toMatch(new RegExp(`Bitmap Index Scan on ${table}_title__words_idx`));
        expect(plan).not.toMatch(/Seq Scan/);
      } else if (store.dialect === 'sqlite') {
        expect(plan).toMatch(/VIRTUAL TABLE INDEX/);
        expect(plan).not.toMatch(new RegExp(`SCAN ${table}\\b(?! USING)`));
      } else {
        // Each word is a range of the words table's primary key; the records are found by theirs.
        expect(plan).toMatch(new RegExp(`${table}__words range PRIMARY`));
        expect(plan).not.toMatch(new RegExp(`${table}(__words)? ALL`)); // no full scan of either table
      }
      const found = await db.executeQuery(query);
      expect(found.rows.map((row) => Number((row as { id: unknown }).id))).toEqual([1234]);
      if (process.env.SHOW_SEARCH_PLANS) console.log(`${database.label}:\n${plan}`);
    } finally {
      await store.close();
    }
  }, 60_000);
});
