// Migrations make exactly the tables the store makes (foreign keys, unique and composite indexes
// included), and the drift check at start names any key an existing table lacks.
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { belongsTo, createApi, defineResource, hasMany, type ServerSet } from '@resourcery/core';
import { compiledResource, resourceSchemas } from '@resourcery/core/adapter';
import type { CollectionSchema } from '@resourcery/core/store';
import { createTableSql, migrationsFor, runMigrations } from '@resourcery/sql';
import { callApi } from '@resourcery/testing';
import { IsInt, IsOptional, IsString, IsUUID, Length, MaxLength } from 'class-validator';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from './helpers/databases.js';
import { dropMigrationTables, migratedBesideMade } from './helpers/migrated-tables.js';

class Author {
  @IsString() @Length(1, 200) name!: string;
  @IsOptional() @IsString() @MaxLength(100) country?: string | null;
}
class Book {
  @IsString() @Length(1, 500) title!: string;
  @IsInt() authorId!: number;
  @IsOptional() @IsInt() year?: number | null;
  @IsOptional() @IsString() @Length(10, 17) isbn?: string | null;
  @IsOptional() @IsString() @MaxLength(20000) summary?: string | null;
}
class Review {
  @IsUUID() id!: ServerSet<string>;
  @IsInt() bookId!: number;
  @IsOptional() @IsString() body?: string | null;
}

const authors = defineResource({
  name: 'author',
  model: Author,
  relations: { books: hasMany(Book, { foreignKey: 'authorId' }) },
});
const books = defineResource({
  name: 'book',
  model: Book,
  unique: ['isbn'],
  indexes: [['authorId', '-year', 'id']],
  relations: { author: belongsTo(Author, { foreignKey: 'authorId' }) },
});
const reviews = defineResource({
  name: 'review',
  model: Review,
  relations: { book: belongsTo(Book, { foreignKey: 'bookId', onDelete: 'cascade' }) },
});
const resources = [reviews, books, authors]; // referring first: tables are made referenced first all the same

const folder = mkdtempSync(join(tmpdir(), 'resourcery-migration-keys-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Drops Kysely's migration tables of a prefix (the store drops its own tables on close). */
for (const database of testDatabases(folder)) {
  describe(database.label, () => {
    it('migrations from resourceSchemas make the tables the store makes, catalog against catalog', async () => {
      // The API starts on the migrated tables (the drift check finds every key) and they refuse
      // what the store's own tables refuse.
      await migratedBesideMade(database, resources, async ({ api, catalog }) => {
        expect(catalog.join('\n')).toMatch(/FOREIGN KEY \W*authorId\W* REFERENCES \W*authors/);
        expect(catalog.join('\n')).toMatch(
          /FOREIGN KEY \W*bookId\W* REFERENCES \W*books\W* *\(\W*id\W*\) ON DELETE CASCADE/,
        );
        const orphan = await callApi(api, { method: 'POST', path: '/books', body: { title: 'T', authorId: 999 } });
        expect(orphan.status).toBe(422);
        expect((orphan.body as { errors: unknown }).errors).toEqual({ authorId: ['does not exist'] });
      });
    });

    it("refuses to start on tables migrated from compiledResource's schemas, which have no foreign keys", async () => {
      const { store, tablePrefix } = database.open({ createTables: false });
      try {
        const schemas = [
          compiledResource(reviews).schema,
          compiledResource(books).schema,
          compiledResource(authors).schema,
        ];
        await runMigrations(store.db, migrationsFor(schemas, { tablePrefix }), { tablePrefix });
        const refusal = createApi({ resources, store }).ready();
        await expect(refusal).rejects.toThrow(`Table "${tablePrefix}books" does not match the declaration of books`);
        await expect(refusal).rejects.toThrow(
          `no foreign key "authorId" → ${tablePrefix}authors.id ON DELETE RESTRICT (the store names it "${tablePrefix}books_authorId_fkey")`,
        );
      } finally {
        for (const table of ['reviews', 'books', 'authors']) {
          await store.db.schema.dropTable(`${tablePrefix}${table}`).ifExists().execute();
        }
        await dropMigrationTables(store, tablePrefix);
        await store.close();
      }
    });

    it('names each key an existing table lacks or holds differently; an index of another name serves', async () => {
      const { store, tablePrefix } = database.open();
      const [authorSchema, bookSchema] = resourceSchemas([authors, books]) as [CollectionSchema, CollectionSchema];
      store.collection(authorSchema);
      await store.init([authorSchema]);
      const q = store.dialect === 'mariadb' ? '`' : '"';
      const nullsLast = store.dialect === 'postgres' ? ' NULLS LAST' : '';
      /** A books table made from `made` (and `extra` statements), then checked against the declaration. */
      const check = async (
        name: string,
        made: Partial<CollectionSchema>,
        extra: (table: string) => string[] = () => [],
      ) => {
        const declared = { ...bookSchema, name };
        store.collection(declared); // dropped on close
        const table = `${tablePrefix}${name}`;
        for (const statement of [
          ...createTableSql({ ...declared, ...made }, store.dialect, { tablePrefix }),
          ...extra(table),
        ]) {
          await sql.raw(statement).execute(store.db);
        }
        return store.init([authorSchema, declared]).then(
          () => 'fits',
          (error: Error) => error.message,
        );
      };
      const authorsTable = `${tablePrefix}${authorSchema.name}`;
      try {
        expect(await check('b_no_fkey', { references: [] })).toContain(
          `no foreign key "authorId" → ${authorsTable}.id ON DELETE RESTRICT (the store names it "${tablePrefix}b_no_fkey_authorId_fkey")`,
        );
        const cascading = [{ field: 'authorId', collection: authorSchema.name, onDelete: 'cascade' as const }];
        expect(await check('b_cascade', { references: cascading })).toContain(
          'the foreign key on "authorId" is ON DELETE CASCADE where ON DELETE RESTRICT is declared',
        );
        expect(await check('b_no_unique', { unique: [] })).toContain(
          `no unique index (${q}isbn${q}) (the store names it "${tablePrefix}b_no_unique_isbn_key")`,
        );
        expect(await check('b_no_index', { indexes: [] })).toMatch(
          `no index (${q}authorId${q}, ${q}year${q} DESC${nullsLast}, ${q}id${q}) (the store names it "${tablePrefix}b_no_index_authorId_year_desc_id_idx")`,
        );
        const ascending = (table: string) => [
          `CREATE INDEX ${q}${table}_mine${q} ON ${q}${table}${q} (${q}authorId${q}, ${q}year${q}, ${q}id${q})`,
        ];
        expect(await check('b_ascending', { indexes: [] }, ascending)).toContain(
          `no index (${q}authorId${q}, ${q}year${q} DESC`,
        );
        const mine = (table: string) => [
          `CREATE INDEX ${q}${table}_mine${q} ON ${q}${table}${q} (${q}authorId${q}, ${q}year${q} DESC${nullsLast}, ${q}id${q})`,
        ];
        expect(await check('b_mine', { indexes: [] }, mine)).toBe('fits');
        expect(await check('b_whole', {})).toBe('fits');
      } finally {
        await store.close();
      }
    });
  });
}
