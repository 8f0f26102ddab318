import { type AttributeSchema, type ConstraintKind, MAX_PRECISION } from '@resourcery/core/store';
import { type Kysely, MysqlAdapter, sql } from 'kysely';
import { mysqlDialect, POOL_TIMEOUT } from '../execute/mysql-pool.js';
import type { SqlDialect, SqlDialectSpec } from './dialect.js';
import { describeMysqlKeys } from './mysql-catalog.js';
import { firstGroup, informationSchemaColumns, likeContains } from './shared.js';

/**
 * Longest VARCHAR that MySQL/MariaDB can index whole together with the id: InnoDB keys hold
 * at most 3072 bytes, utf8mb4 takes up to 4 bytes a character, and the BIGINT id takes 8.
 */
const INDEXABLE_CHARS = 765;
/** Characters of a TEXT column that its index keeps (TEXT can only be indexed by prefix). */
const PREFIX_CHARS = 255;

/**
 * Errors that say the server cannot serve right now (mysql2 also flags every connection-level
 * failure with `fatal: true`). Deadlocks and lock timeouts are transient too: the client is
 * told to retry.
 */
const UNAVAILABLE = new Set([
  POOL_TIMEOUT,
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'ER_CON_COUNT_ERROR',
  'ER_TOO_MANY_USER_CONNECTIONS',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_ACCESS_DENIED_ERROR',
  'ER_BAD_DB_ERROR',
  'ER_LOCK_DEADLOCK',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_OPTION_PREVENTS_STATEMENT', // read-only replica after a failover
]);

const KINDS: Record<string, ConstraintKind> = {
  ER_DUP_ENTRY: 'unique',
  ER_BAD_NULL_ERROR: 'not_null',
  ER_NO_DEFAULT_FOR_FIELD: 'not_null',
  ER_DATA_TOO_LONG: 'check',
  ER_TRUNCATED_WRONG_VALUE_FOR_FIELD: 'check',
  ER_WARN_DATA_OUT_OF_RANGE: 'check',
  ER_CHECK_CONSTRAINT_VIOLATED: 'check',
  ER_CONSTRAINT_FAILED: 'check', // MariaDB's 4025
  ER_ROW_IS_REFERENCED: 'referenced',
  ER_ROW_IS_REFERENCED_2: 'referenced',
  ER_NO_REFERENCED_ROW: 'foreign_key',
  ER_NO_REFERENCED_ROW_2: 'foreign_key',
};

/** A uuid column: ASCII compared byte by byte (MariaDB's UUID type sorts in another order). */
const UUID_COLUMN = 'CHAR(36) CHARACTER SET ascii COLLATE ascii_bin';

/**
 * Tells MySQL from MariaDB, and refuses a pool (of the application's own Kysely instance) that
 * reads `DATETIME` as a Date in the machine's time zone: date-times would shift with it.
 */
// biome-ignore lint/suspicious/noExplicitAny: as above
async function askServer(db: Kysely<any>): Promise<SqlDialectSpec> {
  const { rows } = await sql<{ version: string; probe: unknown }>`
    select version() as version, cast('2000-01-01 00:00:00' as datetime) as probe`.execute(db);
  const probe = rows[0]?.probe;
  if (probe instanceof Date && probe.getTime() !== Date.UTC(2000, 0, 1)) {
    throw new Error(
      "This mysql2 pool reads DATETIME values in the machine's time zone: create it with " +
        "`dateStrings: true` (or `timezone: 'Z'`) so that date-times and dates do not shift",
    );
  }
  return /mariadb/i.test(rows[0]?.version ?? '') ? mariadb : mysql;
}

function quote(identifier: string): string {
  return `\`${identifier.replaceAll('`', '``')}\``;
}

/** Whether a string attribute gets a TEXT column, which an index can only hold by prefix. */
function isText(attribute: AttributeSchema): boolean {
  return attribute.maxLength === undefined || attribute.maxLength > INDEXABLE_CHARS;
}

/**
 * The MySQL family, named `mysql` or `mariadb` by the no-pad binary collation of its server
 * (code point order, no trailing-space padding: equality and order as in memory).
 */
function mysqlFamily(name: SqlDialect, collation: string): SqlDialectSpec {
  const dialect: SqlDialectSpec = {
    name,
    createKyselyDialect: mysqlDialect,
    recognizes: (adapter) => adapter instanceof MysqlAdapter,
    serverDialect: askServer,

    quote,
    quoteString: (text) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`,
    idColumnType: (type) => (type === 'uuid' ? `${UUID_COLUMN} NOT NULL` : 'BIGINT NOT NULL AUTO_INCREMENT'),
    columnType(attribute) {
      switch (attribute.type) {
        case 'string': {
          const length = attribute.maxLength === undefined ? undefined : Math.max(1, Math.floor(attribute.maxLength));
          const type = length !== undefined && length <= INDEXABLE_CHARS ? `VARCHAR(${length})` : 'MEDIUMTEXT';
          return `${type} CHARACTER SET utf8mb4 COLLATE ${collation}`;
        }
        case 'integer':
          return 'BIGINT';
        case 'number':
          return 'DOUBLE';
        case 'boolean':
          return 'BOOLEAN';
        case 'date-time':
          return 'DATETIME(3)'; // the UTC wall time, to the millisecond
        case 'date':
          return 'DATE';
        case 'decimal':
          return `DECIMAL(${attribute.precision ?? MAX_PRECISION}, ${attribute.scale ?? 0})`;
        case 'uuid':
          return UUID_COLUMN;
        case 'json': // MariaDB's JSON is this; MySQL's would reorder keys
          return `LONGTEXT CHARACTER SET utf8mb4 COLLATE ${collation}`;
      }
    },
    columnCheck: (attribute) =>
      attribute.type === 'json' ? `CHECK (json_valid(${quote(attribute.name)}))` : undefined,
    // TEXT columns take a default only as an expression (MySQL 8).
    defaultClause: (attribute, literal) =>
      (attribute.type === 'string' && isText(attribute)) || attribute.type === 'json'
        ? `DEFAULT (${literal})`
        : `DEFAULT ${literal}`,
    typeFamilies: {
      integer: /^(tinyint|smallint|mediumint|int|bigint)$/,
      number: /^(double|float|real|decimal)$/,
      string: /^(char|varchar|tinytext|text|mediumtext|longtext)$/,
      boolean: /^(tinyint|bit)$/,
      'date-time': /^datetime$/,
      date: /^date$/,
      decimal: /^decimal$/,
      uuid: /^(char|varchar|uuid)$/,
      json: /^(json|longtext|mediumtext|text)$/,
    },
    describeColumns: (db, table) => informationSchemaColumns(db, table, 'database()'),
    describeKeys: describeMysqlKeys,
    prepareConnection: async () => {},
    indexColumn: (attribute) =>
      attribute.type === 'string' && isText(attribute)
        ? `${quote(attribute.name)}(${PREFIX_CHARS})`
        : quote(attribute.name),
    createTable(table, columns, indexes) {
      // No CREATE INDEX IF NOT EXISTS; keys inside CREATE TABLE make one atomic statement.
      const keys = [
        `PRIMARY KEY (${quote('id')})`,
        ...indexes.map((index) => `${index.unique ? 'UNIQUE ' : ''}KEY ${quote(index.name)} (${index.key})`),
      ];
      return [
        `CREATE TABLE IF NOT EXISTS ${quote(table)} (\n  ${[...columns, ...keys].join(',\n  ')}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=${collation}`,
      ];
    },

    supportsReturning: false,
    insertReturning: name === 'mariadb',
    maxParameters: 65535,
    supportsTransactionalDdl: false,
    lateralJoins: false, // MariaDB has none (MySQL has it since 8.0.14): both take the UNION ALL
    nullsSortFirst: true,
    nativeBooleans: false,
    dateTimeParameter: (canonical) => canonical.slice(0, 23).replace('T', ' '),
    localDriverDates: false, // a pool reading dates in local time is refused by `serverDialect`
    scaledDecimals: false,
    contains: likeContains,

    isUnavailable: ({ code, fatal }) => (typeof code === 'string' && UNAVAILABLE.has(code)) || fatal === true,
    constraintFailure(code, { message }) {
      // MariaDB's failed CHECK (4025) reaches mysql2 under the name MySQL gives that number.
      const kind =
        KINDS[code] ?? (/^CONSTRAINT `(?:[^`]|``)+` failed for /.test(String(message)) ? 'check' : undefined);
      if (!kind) return undefined;
      // "Duplicate entry … for key 'books_isbn_key'"; "… a foreign key constraint fails (`db`.`books`,
      // CONSTRAINT `books_authorId_fkey` FOREIGN KEY (`authorId`) REFERENCES …".
      const key =
        firstGroup(message, /for key '(?:[^'.]+\.)?([^']+)'/) ?? firstGroup(message, /CONSTRAINT `((?:[^`]|``)+)`/);
      const column =
        firstGroup(message, /(?:Column|Field|column) '([^']+)'/) ?? firstGroup(message, /FOREIGN KEY \(`([^`]+)`\)/);
      return { kind, columns: [column, key], constraint: key };
    },
  };
  return dialect;
}

/**
 * MySQL 8 through mysql2, with the `utf8mb4_0900_bin` collation. A `mysql://` URL names either
 * server: `serverDialect` answers {@link mariadb} when the server is MariaDB.
 *
 * @example
 * ```ts
 * mysql.columnType({ name: 'name', type: 'string', nullable: false }); // 'MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_bin'
 * ```
 */
export const mysql: SqlDialectSpec = mysqlFamily('mysql', 'utf8mb4_0900_bin');

/**
 * MariaDB through mysql2: MySQL's SQL, with the `utf8mb4_nopad_bin` collation.
 *
 * @example
 * ```ts
 * mariadb.createTable('books', ['`id` BIGINT NOT NULL AUTO_INCREMENT'], []);
 * ```
 */
export const mariadb: SqlDialectSpec = mysqlFamily('mariadb', 'utf8mb4_nopad_bin');
