import type { AttributeSchema, AttributeType, ConstraintKind } from '@resourcery/core/store';
import type { DialectAdapter, Kysely, Dialect as KyselyDialect, RawBuilder, SqlBool } from 'kysely';
import type { PoolerOptions } from '../execute/pooler.js';
import type { RowEstimates } from './row-estimates.js';

/**
 * The databases the SQL store speaks. `mysql` and `mariadb` share a wire protocol and almost all
 * SQL; they differ in the binary collation without padding (`utf8mb4_0900_bin`, `utf8mb4_nopad_bin`).
 *
 * @example
 * ```ts
 * const dialect: SqlDialect = 'postgres';
 * ```
 */
export type SqlDialect = 'sqlite' | 'postgres' | 'mysql' | 'mariadb';

/** How connections are made for a URL (ignored for a Kysely instance, which has its own). */
export interface ConnectionOptions extends PoolerOptions {
  /** Most connections each pool opens (PostgreSQL, MySQL/MariaDB). Default: 10. */
  readonly poolSize?: number;
  /**
   * How long a request waits for a connection (a free one of the pool, or a new one) before it
   * fails with 503 (PostgreSQL, MySQL/MariaDB). Default: 5000 ms.
   */
  readonly connectTimeoutMs?: number;
  /**
   * How long a statement waits for a lock another connection holds (a row being updated, a
   * locked table) before it fails with 503 (PostgreSQL `lock_timeout`; MySQL/MariaDB
   * `innodb_lock_wait_timeout` and `lock_wait_timeout`, in whole seconds, rounded up). Default:
   * 5000 ms. SQLite's is `busyTimeoutMs`.
   *
   * @example
   * ```ts
   * sqlStore('postgres://app@db/books', { connectTimeoutMs: 2000, lockTimeoutMs: 2000 });
   * ```
   */
  readonly lockTimeoutMs?: number;
  /**
   * SQLite: how long a statement waits for another process's lock before 503. Default: 5000 ms. The store's own
   * database waits on a timer (the statement is tried again, from 1 ms to 100 ms apart), so other requests are
   * served meanwhile; transactions take the write lock when they begin (`BEGIN IMMEDIATE`).
   */
  readonly busyTimeoutMs?: number;
  /**
   * SQLite (WAL mode): when a commit reaches the disk. `'full'` (the default) flushes the log at
   * every commit: an answered write survives a crash of the process and of the machine (power
   * loss, kernel panic). `'normal'` flushes only at checkpoints: an answered write survives a
   * crash of the process, but the last commits before a crash of the machine may be lost (the
   * database stays consistent). docs/performance.md measures both.
   *
   * @example
   * ```ts
   * sqlStore('sqlite:data/cache.sqlite', { synchronous: 'normal' });
   * ```
   */
  readonly synchronous?: 'full' | 'normal';
}

/** The fields of a driver's error that the dialects read (pg, mysql2, better-sqlite3, Node sockets). */
export interface DriverError {
  readonly code?: unknown;
  readonly errno?: unknown;
  readonly fatal?: unknown;
  readonly message?: unknown;
  readonly detail?: unknown;
  readonly column?: unknown;
  readonly constraint?: unknown;
  readonly cause?: unknown;
  readonly errors?: unknown;
}

/**
 * What a driver's error says about the constraint a write broke. A foreign key error is `referenced` when the
 * driver tells that a destroyed record is still referred to (the parent side), `foreign_key` otherwise (SQLite
 * never tells: the store knows from what it was doing).
 */
export interface ConstraintFailure {
  readonly kind: ConstraintKind;
  /** Column names the error gives, most telling first: the first that is an attribute is the field. */
  readonly columns: readonly (string | undefined)[];
  /** The constraint or index it names, whose `_`-separated parts may name the field (`books_name_unique`). */
  readonly constraint?: string;
  /** Every column of the unique key, in its order, when the driver lists them (SQLite). */
  readonly key?: readonly string[];
}

/** One column of an index key, in the order the index keeps it. */
export interface IndexColumn {
  readonly column: string;
  readonly descending: boolean;
}

/** One index of a table: its name, its key (quoted and ready for SQL: `"name", "id"`) and its columns. */
export interface TableIndex {
  readonly name: string;
  readonly key: string;
  readonly columns: readonly IndexColumn[];
  /** Whether no two rows may share the key (a unique set of the schema). */
  readonly unique?: boolean;
  /** A partial index: only the rows where this column is null (`WHERE "archivedAt" IS NULL`). */
  readonly whereNull?: string;
  /** A key column an older table's index may lack (an archiving resource's archive): without it, it serves the same reads. */
  readonly optionalColumn?: string;
}

/** One index of an existing table, as the database's catalog describes it. */
export interface CatalogIndex {
  readonly name: string;
  /** Its key columns in order (`''` for an expression), and whether only a prefix of a string is kept (MySQL indexes TEXT that way). */
  readonly columns: readonly (IndexColumn & { readonly prefix?: boolean })[];
  readonly unique: boolean;
  /** Whether it covers only some rows (a `WHERE`) or holds an expression: it serves no key of the store's. */
  readonly partial: boolean;
}

/** One foreign key of an existing table, as the database's catalog describes it. */
export interface CatalogForeignKey {
  readonly name: string;
  readonly column: string;
  readonly table: string;
  /** The referenced column. */
  readonly references: string;
  /** The catalog's rule, lowercase: `restrict`, `no action`, `cascade`, `set null`, `set default`. */
  readonly onDelete: string;
}

/** One `CHECK` of an existing table, as the database's catalog writes it back. */
export interface CatalogCheck {
  /** Its name (SQLite: the name in the table's SQL, `''` for an unnamed one). */
  readonly name: string;
  /** Its expression, as the catalog writes it (PostgreSQL turns `IN (…)` into `= ANY (ARRAY[…])`). */
  readonly clause: string;
}

/** The keys of an existing table: its indexes (the primary key aside), foreign keys and CHECKs. */
export interface CatalogKeys {
  readonly indexes: readonly CatalogIndex[];
  readonly foreignKeys: readonly CatalogForeignKey[];
  readonly checks: readonly CatalogCheck[];
}

/** One column of an existing table, as the database's catalog describes it. */
export interface CatalogColumn {
  readonly name: string;
  /** The catalog's type name, lowercase (`bigint`, `timestamp with time zone`, `varchar(500)`). */
  readonly type: string;
  readonly nullable: boolean;
  /** Digits after the point of a fixed-point column, when the catalog tells it. */
  readonly scale?: number;
}

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
type Db = Kysely<any>;

/**
 * Everything that differs between the databases the store speaks, in the manner of Kysely's
 * `Dialect`: one object per database (`sqlite.ts`, `postgres.ts`, `mysql.ts`), and the rest of
 * the package asks it instead of testing which database it is. Everything else (queries built
 * with Kysely, the DDL's layout, the meaning of errors) is shared.
 *
 * The store's promises hold in every dialect: ids increase and are never reused, strings
 * compare by code point, `null` sorts first ascending and last descending.
 *
 * @example
 * ```ts
 * const column = `${dialect.quote(attribute.name)} ${dialect.columnType(attribute)}`;
 * if (!dialect.supportsReturning) await readBack(id);
 * ```
 */
export interface SqlDialectSpec extends RowEstimates {
  /** The name users pass and read (`sqlStore(db, { dialect })`, `provider.dialect`). */
  readonly name: SqlDialect;

  /** The Kysely dialect of the store's own connection to `location` (from the URL; made in `execute/`), opened on first use, loading the driver then. */
  createKyselyDialect(location: string, options: ConnectionOptions): KyselyDialect;
  /** Whether a Kysely instance built with this adapter speaks this dialect (Kysely's own three). */
  recognizes(adapter: DialectAdapter): boolean;
  /** The dialect of the server actually reached: tells MySQL from MariaDB, `this` for the others. */
  serverDialect(db: Db): Promise<SqlDialectSpec>;

  /** Quotes an identifier, doubling the quote character inside it. */
  quote(identifier: string): string;
  /**
   * The type and constraints of the `id` column: an integer assigned by the database, increasing
   * and never reused, or a uuid the store is given.
   */
  idColumnType(type: 'integer' | 'uuid'): string;
  /** The column type of an attribute: binary string collation, booleans as stored, without `NOT NULL`. */
  columnType(attribute: AttributeSchema): string;
  /** A `CHECK` the column of an attribute needs (SQLite booleans are 0 or 1, MariaDB json is valid), if any. */
  columnCheck(attribute: AttributeSchema): string | undefined;
  /** A string as an SQL literal, quoted and escaped for this database. */
  quoteString(text: string): string;
  /** The `DEFAULT` of a column from a literal (MySQL wants text defaults in parentheses). */
  defaultClause(attribute: AttributeSchema, literal: string): string;
  /** Catalog type names (from {@link describeColumns}) that hold each attribute type. */
  readonly typeFamilies: Readonly<Record<AttributeType, RegExp>>;
  /** An attribute's column as the first part of an index key, quoted (MySQL indexes long text by prefix). */
  indexColumn(attribute: AttributeSchema): string;
  /** The statements that create a table (columns already written) and its indexes if they are missing. */
  createTable(table: string, columns: readonly string[], indexes: readonly TableIndex[]): string[];
  /** The columns of a table as the catalog describes them, none when the table does not exist. */
  describeColumns(db: Db, table: string): Promise<CatalogColumn[]>;
  /** The indexes, foreign keys and CHECKs of a table as the catalog describes them (for the drift check). */
  describeKeys(db: Db, table: string): Promise<CatalogKeys>;
  /** Statements every connection needs before the store uses it (SQLite: `PRAGMA foreign_keys = ON`). */
  prepareConnection(db: Db): Promise<void>;

  /** Whether INSERT and UPDATE can answer the written row (`RETURNING`); else it is read back. */
  readonly supportsReturning: boolean;
  /** Whether a (multi-row) INSERT can answer its rows: MariaDB's can (10.5+), though not its UPDATE. */
  readonly insertReturning: boolean;
  /** The most parameters one statement may carry (SQLite 32766, PostgreSQL and MySQL 65535). */
  readonly maxParameters: number;
  /** Whether DDL runs in transactions, so that a table appears with all its indexes or not at all. */
  readonly supportsTransactionalDdl: boolean;
  /** Whether a has-many `include` joins each group's first records `CROSS JOIN LATERAL` (else one `UNION ALL`). */
  readonly lateralJoins: boolean;
  /**
   * Whether `null` sorts before every value ascending (and after descending) without being told;
   * when not, ORDER BY and nullable index keys say `NULLS FIRST` / `NULLS LAST`.
   */
  readonly nullsSortFirst: boolean;
  /** Whether the driver binds JS booleans; when not they are sent as 1 and 0. */
  readonly nativeBooleans: boolean;
  /**
   * How a date-time in canonical form (`2024-05-01T12:00:00.000Z`) is sent: as it is, or as the
   * UTC wall time a zone-less column holds (MySQL `DATETIME`).
   */
  dateTimeParameter(canonical: string): string;
  /**
   * Whether a driver that answers a `DATE` column as a JS `Date` puts it at local midnight (pg's
   * default parser), rather than at UTC midnight (mysql2 with `timezone: 'Z'`).
   */
  readonly localDriverDates: boolean;
  /** Whether decimals are stored as integers scaled by 10^scale (SQLite, which has no exact decimal type). */
  readonly scaledDecimals: boolean;

  /**
   * Whether the string `column` holds `text` somewhere, literally and case-sensitively (`%`, `_`
   * and `\` match themselves): `instr()` on SQLite, whose LIKE ignores ASCII case, and
   * `LIKE '%…%' ESCAPE '!'` (the pattern escaped) on the binary-collated columns elsewhere.
   */
  contains(column: string, text: string): RawBuilder<SqlBool>;

  /** Whether a driver's error (itself, not its causes) says the database cannot serve right now. */
  isUnavailable(error: DriverError): boolean;
  /** The constraint a driver's error with this `code` says a write broke, if any. */
  constraintFailure(code: string, error: DriverError): ConstraintFailure | undefined;
}
