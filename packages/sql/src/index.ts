// Public entry of @resourcery/sql: SQL stores (SQLite, PostgreSQL, MySQL, MariaDB) over Kysely.
export type { ChangeLogOptions } from './changes/change-log.js';
export { createTableSql, type SchemaSqlOptions, schemaSql } from './ddl/schema-sql.js';
export type { ConnectionOptions, SqlDialect } from './dialects/dialect.js';
export {
  CREATE_TABLES_MIGRATION,
  createTablesMigration,
  type MigrationOptions,
  migrationStatus,
  migrationsFor,
  runMigrations,
  sqlMigration,
} from './migrate/migrations.js';
export { type DatabaseLocation, parseDatabaseUrl, redactUrl } from './store/open-database.js';
export type { ReplicaOptions, ReplicaStatus } from './store/replica-options.js';
export type { RetryOptions } from './store/retries.js';
export { type SqlStoreOptions, type SqlStoreProvider, sqlStore } from './store/sql-store.js';
export { translateError } from './store/translate-error.js';
