import type { AttributeSchema, ConstraintKind } from '@resourcery/core/store';
import { type SqlBool, SqliteAdapter, sql } from 'kysely';
import { StoreSqliteDialect } from '../execute/sqlite-connection.js';
import type { CatalogColumn, SqlDialectSpec } from './dialect.js';
import { doubleQuote, firstGroup, standardSql } from './shared.js';
import { describeSqliteKeys } from './sqlite-catalog.js';

/** Locked by another process past `busyTimeoutMs`, file missing or unwritable, disk full. */
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY)/;

const KINDS: Record<string, ConstraintKind> = {
  SQLITE_CONSTRAINT_UNIQUE: 'unique',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
  SQLITE_CONSTRAINT_NOTNULL: 'not_null',
  SQLITE_CONSTRAINT_CHECK: 'check',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign_key',
  SQLITE_TOOBIG: 'check',
};

function columnType(attribute: AttributeSchema): string {
  switch (attribute.type) {
    case 'string': // SQLite's default BINARY collation compares UTF-8 bytes: code point order
    case 'date-time': // fixed-width `YYYY-MM-DDTHH:MM:SS.sssZ`: text order is time order
    case 'date':
    case 'uuid': // lowercase
    case 'json':
      return 'TEXT';
    case 'integer':
    case 'boolean': // no boolean type: 0 or 1
    case 'decimal': // scaled by 10^scale (12.50 is 1250): exact, and sorts numerically
      return 'INTEGER';
    case 'number':
      return 'REAL';
  }
}

async function describeColumns(db: Parameters<SqlDialectSpec['describeColumns']>[0], table: string) {
  const { rows } = await sql<{ name: string; type: string; notnull: number; pk: number }>`
    select name, type, "notnull", pk from pragma_table_info(${table})`.execute(db);
  return rows.map(
    (row): CatalogColumn => ({ name: row.name, type: row.type.toLowerCase(), nullable: row.notnull === 0 && !row.pk }),
  );
}

/** Declared types by SQLite's affinity rules (https://sqlite.org/datatype3.html#determination_of_column_affinity). */
const INTEGER_AFFINITY = /int/;
const TEXT_AFFINITY = /^(?!.*int).*(char|clob|text)/;

/**
 * SQLite through better-sqlite3: a file (WAL journal, synchronous writes) or `:memory:`.
 *
 * @example
 * ```ts
 * sqlite.createTable('books', ['"id" INTEGER PRIMARY KEY AUTOINCREMENT'], []);
 * ```
 */
export const sqlite: SqlDialectSpec = {
  name: 'sqlite',
  createKyselyDialect: (path, options) => new StoreSqliteDialect(path, options),
  recognizes: (adapter) => adapter instanceof SqliteAdapter,
  serverDialect: async () => sqlite,

  ...standardSql,
  // Without AUTOINCREMENT, SQLite reuses the highest id after it is deleted.
  idColumnType: (type) => (type === 'uuid' ? 'TEXT NOT NULL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT'),
  columnType,
  columnCheck: (attribute) =>
    attribute.type === 'boolean' ? `CHECK (${doubleQuote(attribute.name)} IN (0, 1))` : undefined,
  defaultClause: (_, literal) => `DEFAULT ${literal}`,
  typeFamilies: {
    integer: INTEGER_AFFINITY,
    number: /^(?!.*(int|char|clob|text)).*(real|floa|doub|num|dec)/,
    string: TEXT_AFFINITY,
    boolean: /int|bool/,
    'date-time': TEXT_AFFINITY,
    date: TEXT_AFFINITY,
    decimal: INTEGER_AFFINITY,
    uuid: TEXT_AFFINITY,
    json: TEXT_AFFINITY,
  },
  describeColumns,
  describeKeys: describeSqliteKeys,
  // For a Kysely instance the application opened; the store's own sets it when it opens (execute/sqlite-connection.ts).
  prepareConnection: async (db) => {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  },

  supportsReturning: true,
  insertReturning: true,
  maxParameters: 32766,
  supportsTransactionalDdl: true,
  lateralJoins: false,
  nullsSortFirst: true,
  nativeBooleans: false, // better-sqlite3 binds no booleans
  dateTimeParameter: (canonical) => canonical,
  localDriverDates: false, // never a Date: dates are text
  scaledDecimals: true,
  // SQLite's LIKE ignores ASCII case; instr() finds the exact text.
  contains: (column, text) => sql<SqlBool>`instr(${sql.ref(column)}, ${text}) > 0`,

  isUnavailable: ({ code }) => typeof code === 'string' && UNAVAILABLE.test(code),
  constraintFailure(code, { message }) {
    // An ON DELETE RESTRICT key fails as SQLITE_CONSTRAINT_TRIGGER, with the foreign key's message.
    const foreignKey = code.startsWith('SQLITE_CONSTRAINT') && /^FOREIGN KEY constraint failed/.test(String(message));
    const kind = foreignKey
      ? 'foreign_key'
      : (KINDS[code] ?? (code.startsWith('SQLITE_CONSTRAINT') ? 'other' : undefined));
    if (!kind) return undefined;
    // "UNIQUE constraint failed: books.name, books.year": the columns of the key, in its order.
    const columns = (firstGroup(message, /constraint failed: (.+)$/)?.split(', ') ?? []).map((column) =>
      column.replace(/^.*\./, ''),
    );
    // "CHECK constraint failed: issues_status_check": a named CHECK's name.
    const constraint = kind === 'check' && columns.length === 1 ? columns[0] : undefined;
    return { kind, columns: columns.length === 1 ? columns : [], key: columns, ...(constraint ? { constraint } : {}) };
  },
};
