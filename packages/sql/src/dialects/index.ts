import type { Kysely } from 'kysely';
import type { SqlDialect, SqlDialectSpec } from './dialect.js';
import { mariadb, mysql } from './mysql.js';
import { postgres } from './postgres.js';
import { sqlite } from './sqlite.js';

export type { ConnectionOptions, SqlDialect, SqlDialectSpec } from './dialect.js';

const BY_NAME: Readonly<Record<SqlDialect, SqlDialectSpec>> = { sqlite, postgres, mysql, mariadb };

/**
 * Every dialect the store speaks, MySQL before MariaDB (a Kysely MySQL adapter is either, and
 * the server tells which).
 *
 * @example
 * ```ts
 * const names = DIALECTS.map((dialect) => dialect.name); // ['sqlite', 'postgres', 'mysql', 'mariadb']
 * ```
 */
export const DIALECTS: readonly SqlDialectSpec[] = Object.values(BY_NAME);

/**
 * The dialect object of a dialect name.
 *
 * @throws TypeError for a name that is not a {@link SqlDialect}.
 * @example
 * ```ts
 * dialectNamed('postgres').quote('books'); // '"books"'
 * ```
 */
export function dialectNamed(name: SqlDialect): SqlDialectSpec {
  const dialect = Object.hasOwn(BY_NAME, name) ? BY_NAME[name] : undefined;
  if (!dialect) throw new TypeError(`Unknown SQL dialect "${name}": use sqlite, postgres, mysql or mariadb`);
  return dialect;
}

/**
 * The dialect of a Kysely instance, told by its adapter when it is one of Kysely's own three.
 *
 * @example
 * ```ts
 * detectDialect(new Kysely({ dialect: new SqliteDialect({ database }) }))?.name; // 'sqlite'
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: any Kysely instance, whatever its table types
export function detectDialect(db: Kysely<any>): SqlDialectSpec | undefined {
  const adapter = db.getExecutor().adapter;
  return DIALECTS.find((dialect) => dialect.recognizes(adapter));
}
