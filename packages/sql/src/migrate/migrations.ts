import type { CollectionSchema } from '@resourcery/core/store';
import {
  type Kysely,
  type Migration,
  type MigrationInfo,
  type MigrationProvider,
  type MigrationResult,
  Migrator,
  sql,
} from 'kysely';
import { withChangeTables } from '../changes/tables.js';
import { referencedFirst } from '../ddl/catalog.js';
import { storedSchemas } from '../ddl/join-copies.js';
import { createTableSql } from '../ddl/schema-sql.js';
import { detectDialect, dialectNamed, type SqlDialect } from '../dialects/index.js';
import { dropKeptCountSql } from '../query/kept-count.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations run on any database
type Db = Kysely<any>;

/**
 * The name of the migration that creates the declared tables in {@link migrationsFor}: it sorts
 * before every timestamped one.
 *
 * @example
 * ```ts
 * await runMigrations(db, migrationsFor(schemas), { to: CREATE_TABLES_MIGRATION });
 * ```
 */
export const CREATE_TABLES_MIGRATION = '00000000000000_create_tables';

/** Names of later migrations: a timestamp (`20240601120000_add_isbn`), so that name order is time order. */
const TIMESTAMPED = /^\d{8,}[_-]./;

/** Options of {@link createTablesMigration}, {@link migrationsFor} and {@link runMigrations}. */
export interface MigrationOptions {
  /** Prefix of every table, the migration tables' too (`app_kysely_migration`). Default: none. */
  readonly tablePrefix?: string;
  /** The dialect, for a Kysely instance whose dialect cannot be detected. */
  readonly dialect?: SqlDialect;
}

/**
 * The tables of the declarations, referenced tables first, as `sqlStore` keeps them: the change
 * log's when a schema is live, each join table with its owner's copies (ddl/join-copies.ts).
 *
 * @example
 * ```ts
 * declaredTables(resourceSchemas([issues, labels])).map((schema) => schema.name); // ['labels', 'issues', 'issue_labels']
 * ```
 */
export function declaredTables(schemas: readonly CollectionSchema[]): CollectionSchema[] {
  return referencedFirst(storedSchemas(withChangeTables(schemas)));
}

async function dialectOf(db: Db, name: SqlDialect | undefined) {
  const detected = name ? dialectNamed(name) : detectDialect(db);
  if (!detected) throw new TypeError('Cannot tell the dialect of this Kysely instance: set the `dialect` option');
  return detected.serverDialect(db); // MySQL or MariaDB
}

/**
 * A Kysely migration that creates the tables of the declarations as they are when it runs
 * (`CREATE TABLE IF NOT EXISTS`, referenced tables first, with their indexes and constraints,
 * exactly as `sqlStore` would); its `down` drops them. The dialect is the database's.
 *
 * @example
 * ```ts
 * const migrator = new Migrator({ db, provider: { getMigrations: async () => ({ '0001_tables': createTablesMigration(schemas) }) } });
 * ```
 */
export function createTablesMigration(schemas: readonly CollectionSchema[], options: MigrationOptions = {}): Migration {
  const ordered = declaredTables(schemas);
  return {
    async up(db) {
      const dialect = await dialectOf(db, options.dialect);
      for (const schema of ordered) {
        for (const statement of createTableSql(schema, dialect.name, options)) await sql.raw(statement).execute(db);
      }
    },
    async down(db) {
      const dialect = await dialectOf(db, options.dialect);
      for (const schema of [...ordered].reverse()) {
        const table = `${options.tablePrefix ?? ''}${schema.name}`;
        // A search's own tables first (docs/search.md): MySQL's words table refers to the table.
        const search = schema.search ? [`${table}__words`, `${table}__search`] : [];
        for (const name of [...search, table]) await db.schema.dropTable(name).ifExists().execute();
        for (const statement of dropKeptCountSql(schema, table, dialect)) await sql.raw(statement).execute(db);
      }
    },
  };
}

/**
 * A Kysely migration of SQL text per dialect, run in the database's (what `resourcery-sql
 * generate` writes: the tables as they were declared that day, frozen).
 *
 * @example
 * ```ts
 * export default sqlMigration({ sqlite: ['ALTER TABLE "books" ADD COLUMN "isbn" TEXT'], postgres: [...] });
 * ```
 */
export function sqlMigration(
  up: Partial<Record<SqlDialect, readonly string[]>>,
  options: { down?: Partial<Record<SqlDialect, readonly string[]>>; dialect?: SqlDialect } = {},
): Migration {
  const run = async (db: Db, statements: Partial<Record<SqlDialect, readonly string[]>>) => {
    const { name } = await dialectOf(db, options.dialect);
    const list = statements[name];
    if (!list) throw new Error(`This migration has no SQL for ${name}`);
    for (const statement of list) await sql.raw(statement).execute(db);
  };
  const { down } = options;
  return { up: (db) => run(db, up), ...(down ? { down: (db: Db) => run(db, down) } : {}) };
}

/**
 * A Kysely `MigrationProvider` defined in code (no files to find at run time, so it works in
 * bundles too): first {@link CREATE_TABLES_MIGRATION}, which creates the declared tables _as
 * declared when it runs_, then yours, named with a timestamp and run in name order. Take the
 * schemas from `resourceSchemas(resources)` (`@resourcery/core/adapter`), which has the foreign
 * keys. Since the first migration follows the declarations, a later migration that adds what
 * they now declare fails on a fresh database ("column already exists"): once there is one,
 * freeze the tables instead (`resourcery-sql generate create_tables`, see docs/stores.md).
 *
 * @throws TypeError for a migration name without a timestamp.
 * @example
 * ```ts
 * // The declared tables, plus a later migration that adds what the declarations do not have.
 * const provider = migrationsFor(resourceSchemas([authors, books]), {
 *   migrations: {
 *     '20240601120000_books_fulltext': sqlMigration({ postgres: ['CREATE INDEX … USING gin (…)'] }),
 *   },
 * });
 * await runMigrations(db, provider);
 * ```
 */
export function migrationsFor(
  schemas: readonly CollectionSchema[],
  options: MigrationOptions & { readonly migrations?: Readonly<Record<string, Migration>> } = {},
): MigrationProvider {
  const mine = options.migrations ?? {};
  for (const name of Object.keys(mine)) {
    if (!TIMESTAMPED.test(name) || name <= CREATE_TABLES_MIGRATION) {
      throw new TypeError(`Migration "${name}": start its name with a timestamp, e.g. 20240601120000_${name}`);
    }
  }
  const all = { [CREATE_TABLES_MIGRATION]: createTablesMigration(schemas, options), ...mine };
  return { getMigrations: async () => all };
}

function migrator(db: Db, provider: MigrationProvider, options: MigrationOptions): Migrator {
  const prefix = options.tablePrefix ?? '';
  return new Migrator({
    db,
    provider,
    migrationTableName: `${prefix}kysely_migration`,
    migrationLockTableName: `${prefix}kysely_migration_lock`,
    // Plain code unit order: the same on every machine, whatever its locale.
    nameComparator: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  });
}

/**
 * Runs migrations with Kysely's `Migrator`: every pending one (`latest`, the default), the last
 * one back (`down`), or up or down to a named one. Kysely records them in `kysely_migration`
 * (with the table prefix), takes a lock so that two processes never migrate at once, and runs
 * each in a transaction where the database allows DDL in one (PostgreSQL).
 *
 * @throws Error naming the migration that failed (the database's error as its `cause`).
 * @example
 * ```ts
 * const results = await runMigrations(db, migrationsFor(schemas));
 * for (const result of results) console.log(result.migrationName, result.status);
 * ```
 */
export async function runMigrations(
  db: Db,
  provider: MigrationProvider,
  options: MigrationOptions & { readonly to?: 'latest' | 'down' | string } = {},
): Promise<MigrationResult[]> {
  const runner = migrator(db, provider, options);
  const to = options.to ?? 'latest';
  const { error, results = [] } = await (to === 'latest'
    ? runner.migrateToLatest()
    : to === 'down'
      ? runner.migrateDown()
      : runner.migrateTo(to));
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(failed ? `Migration "${failed}" failed: ${reason}` : `Migrations failed: ${reason}`, {
      cause: error,
    });
  }
  return results;
}

/**
 * Every migration the provider knows, with when it ran (`executedAt` is missing for pending ones).
 *
 * @example
 * ```ts
 * for (const { name, executedAt } of await migrationStatus(db, provider)) console.log(name, executedAt ?? 'pending');
 * ```
 */
export function migrationStatus(
  db: Db,
  provider: MigrationProvider,
  options: MigrationOptions = {},
): Promise<readonly MigrationInfo[]> {
  return migrator(db, provider, options).getMigrations();
}
