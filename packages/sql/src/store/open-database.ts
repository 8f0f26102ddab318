import { Kysely } from 'kysely';
import { type ConnectionOptions, dialectNamed, type SqlDialect, type SqlDialectSpec } from '../dialects/index.js';
import { storeParameters } from './url-options.js';

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
type Db = Kysely<any>;

/** What a database URL names: the dialect and where the database is. */
export interface DatabaseLocation {
  readonly dialect: SqlDialect;
  /** A file path or `:memory:` for SQLite, a driver connection URL otherwise. */
  readonly location: string;
}

/**
 * Reads a database URL: `sqlite:<path>` (relative to the working directory, `sqlite:///abs`
 * also accepted), `sqlite::memory:`, `postgres://…` or `postgresql://…`, `mysql://…`,
 * `mariadb://…`.
 *
 * @example
 * ```ts
 * parseDatabaseUrl('sqlite:data/books.sqlite'); // { dialect: 'sqlite', location: 'data/books.sqlite' }
 * ```
 */
export function parseDatabaseUrl(url: string): DatabaseLocation {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  const rest = url.slice((scheme?.length ?? 0) + 1);
  switch (scheme) {
    case 'sqlite': {
      const path = rest.startsWith('//') ? rest.slice(2) : rest;
      return { dialect: 'sqlite', location: path === '' ? ':memory:' : path };
    }
    case 'postgres':
    case 'postgresql':
      return { dialect: 'postgres', location: url };
    case 'mysql':
      return { dialect: 'mysql', location: url };
    case 'mariadb':
      return { dialect: 'mariadb', location: `mysql:${rest}` };
    default:
      throw new TypeError(
        `Unsupported database URL "${redactUrl(url)}": use sqlite:<path>, postgres://…, mysql://… or mariadb://…`,
      );
  }
}

/**
 * The URL with its password masked, for logs and start-up messages.
 *
 * @example
 * ```ts
 * redactUrl('postgres://app:secret@db/books'); // 'postgres://app:***@db/books'
 * ```
 */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

/**
 * Opens a database named by a URL as a Kysely instance. Nothing connects yet: the driver is
 * loaded (only the one the URL needs must be installed) and the pool created on first use, and
 * a failed start is tried again by the next query.
 *
 * @example
 * ```ts
 * const { db, dialect } = openDatabase('postgres://postgres@127.0.0.1/books');
 * ```
 */
export function openDatabase(url: string, options: ConnectionOptions = {}): { db: Db; dialect: SqlDialectSpec } {
  const { dialect: name, location: given } = parseDatabaseUrl(url);
  const dialect = dialectNamed(name);
  // A PostgreSQL URL may also carry the store's own options (`?preparedStatements=false`).
  const own = name === 'postgres' ? storeParameters(given) : { location: given, options: {} };
  const merged = {
    ...own.options,
    ...options,
    preparedStatements: options.preparedStatements ?? own.options.preparedStatements,
  };
  return { dialect, db: new Kysely({ dialect: dialect.createKyselyDialect(own.location, merged) }) };
}
