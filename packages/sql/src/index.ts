// Public entry of @resourcery/sql: SQL stores (SQLite, PostgreSQL, MySQL, MariaDB) over Kysely.
export type { ChangeLogOptions } from './changes/change-log.js';
export type { ConnectionOptions, SqlDialect } from './dialects/dialect.js';
export {
  CREATE_TABLES_MIGRATION,
  createTablesMigration,
  type MigrationOptions,
  migrationStatus,
  migrationsFor,
  runMigrations,
  sqlMigration,
} from './migrations.js';
export { type DatabaseLocation, parseDatabaseUrl, redactUrl } from './open-database.js';
export type { ReplicaOptions, ReplicaStatus } from './replica-options.js';
export type { RetryOptions } from './retries.js';
export { createTableSql, type SchemaSqlOptions, schemaSql } from './schema-sql.js';
export { type SqlStoreOptions, type SqlStoreProvider, sqlStore } from './sql-store.js';
export { translateError } from './translate-error.js';
