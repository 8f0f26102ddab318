// Migrations with Kysely's Migrator (docs/stores.md): run before the server starts, after which
// the store only checks the tables (`createTables: false`).
import { compiledResource } from '@resourcery/core/adapter';
import { migrationsFor, runMigrations, sqlStore } from '@resourcery/sql';
import { audits, books } from './audit.js';

const resources = [books, audits];
export const store = sqlStore(process.env.DATABASE_URL!, { createTables: false });
const schemas = resources.map((resource) => compiledResource(resource).schema);
await runMigrations(
  store.db,
  migrationsFor(schemas, {
    migrations: {
      '20240601120000_add_isbn': {
        up: (db) => db.schema.alterTable('books').addColumn('isbn', 'varchar(20)').execute(),
        down: (db) => db.schema.alterTable('books').dropColumn('isbn').execute(),
      },
    },
  }),
);
