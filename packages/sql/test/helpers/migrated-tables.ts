import { type Api, createApi, type Resource } from '@resourcery/core';
import { resourceSchemas } from '@resourcery/core/adapter';
import { migrationsFor, runMigrations, type SqlStoreProvider } from '@resourcery/sql';
import { expect } from 'vitest';
import { catalogDump } from './catalog-dump.js';
import type { TestDatabase } from './databases.js';

// What the "migrations make the tables the store makes" tests share (foreign keys and indexes,
// join tables, CHECKs): the same resources' tables made by the store in one place and by their
// migrations in another, compared catalog against catalog.

/** Drops the tables Kysely's Migrator keeps its history in. */
export async function dropMigrationTables(store: SqlStoreProvider, tablePrefix: string): Promise<void> {
  for (const table of ['kysely_migration', 'kysely_migration_lock']) {
    await store.db.schema.dropTable(`${tablePrefix}${table}`).ifExists().execute();
  }
}

/** What {@link migratedBesideMade} hands its check: the API on the migrated tables, and their catalog. */
export interface Migrated {
  readonly api: Api;
  readonly store: SqlStoreProvider;
  readonly tablePrefix: string;
  /** The catalog of the tables (the same for the migrated tables and the store's own). */
  readonly catalog: string[];
}

/**
 * Makes the tables of `resources` with the store (an API ready on them) and, on fresh tables of
 * the same database, with `migrationsFor(resourceSchemas(resources))`; expects an API to start on
 * the migrated tables (the drift check finds everything) and both catalogs to be equal, then runs
 * `check` on the migrated ones. Everything is dropped after.
 */
export async function migratedBesideMade(
  database: TestDatabase,
  // biome-ignore lint/suspicious/noExplicitAny: resources of any model and state
  resources: readonly Resource<any, any>[],
  check: (migrated: Migrated) => Promise<void>,
): Promise<void> {
  const made = database.open();
  const migrated = database.open({ createTables: false });
  try {
    await createApi({ resources, store: made.store }).ready();
    const { tablePrefix } = migrated;
    await runMigrations(migrated.store.db, migrationsFor(resourceSchemas(resources), { tablePrefix }), {
      tablePrefix,
    });
    const api = createApi({ resources, store: migrated.store });
    await api.ready();
    const [expected, actual] = [
      await catalogDump(made.store, made.tablePrefix),
      await catalogDump(migrated.store, tablePrefix),
    ];
    expect(actual).toEqual(expected);
    await check({ api, store: migrated.store, tablePrefix, catalog: expected });
  } finally {
    await dropMigrationTables(migrated.store, migrated.tablePrefix);
    await migrated.store.close();
    await made.store.close();
  }
}
