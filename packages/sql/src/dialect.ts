import { type Kysely, MysqlAdapter, PostgresAdapter, SqliteAdapter } from 'kysely';

/**
 * The databases the SQL store speaks. `mysql` and `mariadb` share a wire protocol and almost
 * all SQL; they differ in the binary collation without trailing-space padding
 * (`utf8mb4_0900_bin` in MySQL 8, `utf8mb4_nopad_bin` in MariaDB).
 *
 * @example
 * ```ts
 * const dialect: SqlDialect = 'postgres';
 * ```
 */
export type SqlDialect = 'sqlite' | 'postgres' | 'mysql' | 'mariadb';

/** The SQL family of a dialect: MySQL and MariaDB share every query the store sends. */
export type SqlFamily = 'sqlite' | 'postgres' | 'mysql';

/** The family of a dialect. */
export function familyOf(dialect: SqlDialect): SqlFamily {
  return dialect === 'mariadb' ? 'mysql' : dialect;
}

/** Names the dialect of a Kysely instance from its adapter, when it is one of Kysely's own. */
// biome-ignore lint/suspicious/noExplicitAny: the store works on tables it only knows at run time
export function detectDialect(db: Kysely<any>): SqlDialect | undefined {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) return 'postgres';
  if (adapter instanceof MysqlAdapter) return 'mysql';
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  return undefined;
}

/** Quotes an identifier for a dialect, doubling the quote character inside it. */
export function quoteIdentifier(name: string, dialect: SqlDialect): string {
  return familyOf(dialect) === 'mysql' ? `\`${name.replaceAll('`', '``')}\`` : `"${name.replaceAll('"', '""')}"`;
}
