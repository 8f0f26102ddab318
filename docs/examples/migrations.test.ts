// The migration order of docs/stores.md: the first tables frozen before `isbn` existed, then
// add_isbn, run from scratch on a fresh database, give the tables the app expects; a create_tables
// that follows the declarations breaks that same fresh database.
import { createApi } from '@resourcery/core';
import { resourceSchemas } from '@resourcery/core/adapter';
import type { CollectionSchema } from '@resourcery/core/store';
import { createTableSql, migrationsFor, runMigrations, sqlMigration, sqlStore } from '@resourcery/sql';
import { callApi } from '@resourcery/testing';
import { describe, expect, it } from 'vitest';
import addIsbn from './20240601120000_add_isbn.js';
import { resources } from './migrations-resources.js';
import config from './resourcery.config.js';

/** What `resourcery-sql generate create_tables` froze before `isbn` was declared (SQLite's part of it). */
function frozenBeforeIsbn() {
  const before = resourceSchemas(resources).map(
    (schema): CollectionSchema => ({
      ...schema,
      attributes: schema.attributes.filter((attribute) => attribute.name !== 'isbn'),
      indexed: schema.indexed.filter((name) => name !== 'isbn'),
    }),
  );
  return sqlMigration({ sqlite: before.flatMap((schema) => createTableSql(schema, 'sqlite')) });
}

describe('migrations, in the order that works on every database', () => {
  it('the config gives the schemas as the API mounts them, foreign keys included', () => {
    expect(config.schemas).toEqual(resourceSchemas(resources));
    expect(config.schemas[1]?.references).toEqual([{ field: 'authorId', collection: 'authors', onDelete: 'restrict' }]);
  });

  it("a teammate's fresh database runs the frozen create_tables, then add_isbn, and the app starts on it", async () => {
    const store = sqlStore('sqlite::memory:', { createTables: false });
    try {
      const provider = {
        getMigrations: async () => ({
          '20240101000000_create_tables': frozenBeforeIsbn(),
          '20240601120000_add_isbn': addIsbn,
        }),
      };
      const results = await runMigrations(store.db, provider);
      expect(results.map((result) => `${result.migrationName} ${result.status}`)).toEqual([
        '20240101000000_create_tables Success',
        '20240601120000_add_isbn Success',
      ]);
      const api = createApi({ resources, store });
      await api.ready(); // the tables fit the declarations: columns, index and foreign key
      const post = (path: string, body: unknown) => callApi(api, { method: 'POST', path, body });
      expect((await post('/authors', { name: 'Le Guin' })).status).toBe(200);
      expect((await post('/books', { title: 'The Dispossessed', authorId: 1, isbn: '9780060512750' })).status).toBe(
        200,
      );
      expect((await post('/books', { title: 'Nobody', authorId: 99 })).body).toMatchObject({
        errors: { authorId: ['does not exist'] },
      });
    } finally {
      await store.close();
    }
  });

  it('a create_tables that follows the declarations already has isbn: add_isbn then fails', async () => {
    const store = sqlStore('sqlite::memory:', { createTables: false });
    try {
      const following = migrationsFor(resourceSchemas(resources), {
        migrations: { '20240601120000_add_isbn': addIsbn },
      });
      await expect(runMigrations(store.db, following)).rejects.toThrow(
        'Migration "20240601120000_add_isbn" failed: duplicate column name: isbn',
      );
    } finally {
      await store.close();
    }
  });
});
