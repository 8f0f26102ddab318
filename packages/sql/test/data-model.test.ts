import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CollectionSchema, ConstraintViolation } from '@resourcery/core/store';
import { type SqlStoreProvider, sqlStore } from '@resourcery/sql';
import { librarySchemas } from '@resourcery/testing/suites';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from './helpers/databases.js';

// Everything below runs in a zone with daylight saving time, 5 hours behind UTC in winter: a
// date or date-time that went through local time would shift.
process.env.TZ = 'America/New_York';

const folder = mkdtempSync(join(tmpdir(), 'resourcery-data-model-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The store with the library's collections (authors, books, reviews, votes, awards) ready. */
async function library(store: SqlStoreProvider, only?: readonly (keyof ReturnType<typeof librarySchemas>)[]) {
  const schemas = librarySchemas('dm');
  const chosen = only ? only.map((name) => schemas[name]) : Object.values(schemas);
  const authors = store.collection(schemas.authors);
  const books = store.collection(schemas.books);
  await store.init(chosen);
  return { schemas, authors, books } as const;
}

/** A date-time column's value as milliseconds since 1970, read by the database itself. */
function epochMillis(store: SqlStoreProvider, table: string, column: string) {
  const ref = sql.ref(`${table}.${column}`);
  switch (store.dialect) {
    case 'postgres':
      return sql<{ value: string }>`select extract(epoch from ${ref}) * 1000 as value from ${sql.table(table)}`;
    case 'sqlite':
      return sql<{
        value: number;
      }>`select (julianday(${ref}) - 2440587.5) * 86400000 as value from ${sql.table(table)}`;
    default: // DATETIME holds the UTC wall time
      return sql<{
        value: string;
      }>`select timestampdiff(microsecond, '1970-01-01', ${ref}) / 1000 as value from ${sql.table(table)}`;
  }
}

for (const database of testDatabases(folder)) {
  describe(database.label, () => {
    it('keeps date-times in UTC and dates as written, whatever the time zone of the machine', async () => {
      expect(new Date(2024, 0, 1).getTimezoneOffset()).toBe(300); // the zone above is in effect
      const { store, tablePrefix } = database.open();
      try {
        const { authors, books } = await library(store, ['authors', 'books']);
        // The night the clocks go forward in New York, and a midnight that is the day before there.
        const author = await authors.create({ name: 'A', born: '2024-03-10' });
        const created = await books.create({
          title: 'T',
          authorId: author.id,
          publishedAt: '2024-03-10T07:30:00.123Z',
          createdAt: '2024-01-01T00:00:00.000Z',
          meta: { z: 1, a: { y: 2, b: 3 } },
          price: '12.50',
        });
        expect(created).toMatchObject({ publishedAt: '2024-03-10T07:30:00.123Z', price: '12.50' });
        expect(await authors.find(author.id, [])).toMatchObject({ born: '2024-03-10' });
        const found = await books.list({
          where: [{ field: 'publishedAt', values: ['2024-03-10T07:30:00.123Z'] }],
          order: [{ field: 'id', direction: 'asc' }],
          limit: 10,
          offset: 0,
          count: false,
        });
        expect(found.records.map((book) => book.id)).toEqual([created.id]);
        // json keeps its keys in the order written (jsonb or MySQL's JSON would not).
        expect(JSON.stringify(found.records[0]?.meta)).toBe('{"z":1,"a":{"y":2,"b":3}}');
        const { rows } = await epochMillis(store, `${tablePrefix}dm_books`, 'publishedAt').execute(store.db);
        expect(Math.round(Number(rows[0]?.value))).toBe(Date.UTC(2024, 2, 10, 7, 30, 0, 123));
      } finally {
        await store.close();
      }
    });

    it('refuses to start on a table that does not match its declaration, naming the table and column', async () => {
      const { store, tablePrefix } = database.open();
      const schema: CollectionSchema = {
        name: 'drift',
        attributes: [
          { name: 'id', type: 'integer', nullable: false },
          { name: 'price', type: 'decimal', nullable: true, scale: 2, precision: 10 },
          { name: 'title', type: 'string', nullable: false },
          { name: 'note', type: 'string', nullable: true },
        ],
        indexed: [],
      };
      const table = `${tablePrefix}drift`;
      store.collection(schema);
      try {
        await store.db.schema
          .createTable(table)
          .addColumn('id', 'integer', (column) => column.primaryKey())
          .addColumn('price', 'text')
          .addColumn('title', 'text')
          .addColumn('note', 'text', (column) => column.notNull())
          .execute();
        const refusal = store.init([schema]);
        await expect(refusal).rejects.toThrow(`Table "${table}" does not match the declaration of drift`);
        await expect(refusal).rejects.toThrow(/column "price" is text, which cannot hold the declared decimal/);
        await expect(refusal).rejects.toThrow('column "title" accepts NULL but title is declared required');
        await expect(refusal).rejects.toThrow('column "note" is NOT NULL but note is declared nullable');
      } finally {
        await store.close();
      }
    });

    it.skipIf(database.label === 'SQLite')('refuses a decimal column of another scale', async () => {
      const { store, tablePrefix } = database.open();
      const schema: CollectionSchema = {
        name: 'scaled',
        attributes: [
          { name: 'id', type: 'integer', nullable: false },
          { name: 'price', type: 'decimal', nullable: true, scale: 2, precision: 10 },
        ],
        indexed: [],
      };
      store.collection(schema);
      try {
        await store.db.schema
          .createTable(`${tablePrefix}scaled`)
          .addColumn('id', 'integer', (column) => column.primaryKey())
          .addColumn('price', 'decimal(10, 3)')
          .execute();
        await expect(store.init([schema])).rejects.toThrow(
          'column "price" keeps 3 decimal places where 2 are declared',
        );
      } finally {
        await store.close();
      }
    });

    it('refuses to destroy a record that a collection it does not know refers to (the database says so)', async () => {
      const { store, tablePrefix } = database.open();
      try {
        const { schemas, authors, books } = await library(store, ['authors', 'books']);
        const author = await authors.create({ name: 'A' });
        await books.create({ title: 'T', authorId: author.id, createdAt: '2024-01-01T00:00:00.000Z' });
        // A second store over the same tables that knows only authors: no look-up first, the
        // foreign key itself refuses, and the error says nothing of the SQL.
        const alone = sqlStore(store.db, { tablePrefix }).collection(schemas.authors);
        const outcome = await alone.destroy(author.id, []).catch((error: unknown) => error);
        expect(outcome).toBeInstanceOf(ConstraintViolation);
        expect(outcome).toMatchObject({ kind: 'referenced', field: undefined });
        expect((outcome as Error).message).not.toMatch(/dm_|constraint fails|violates|FOREIGN/);
        expect(await authors.find(author.id, [])).toBeDefined();
      } finally {
        await store.close();
      }
    });
  });
}
