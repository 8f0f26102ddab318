import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { AttributeSchema, ConstraintKind } from '@resourcery/core/store';
import { type SqlBool, SqliteAdapter, SqliteDialect, sql } from 'kysely';
import type { CatalogColumn, ConnectionOptions, SqlDialectSpec } from './dialect.js';
import { doubleQuote, firstGroup, standardSql } from './shared.js';
import { PatientSqliteDriver, patiently } from './sqlite-busy.js';
import { describeSqliteKeys } from './sqlite-catalog.js';
import { reuseSqliteStatements, runDirectly } from './statements.js';

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

/**
 * Kysely's SQLite dialect over the file, whose statements {@link runDirectly} may run. Nothing
 * waits for another process's lock on the event loop (see `sqlite-busy.ts`): the database has no
 * busy timeout, and the store tries a statement refused with `SQLITE_BUSY` again on a timer for
 * up to `busyTimeoutMs`.
 */
function openingDialect(path: string, options: ConnectionOptions): SqliteDialect {
  const adapter = new SqliteAdapter();
  const waitMs = options.busyTimeoutMs ?? 5000;
  let opened: Awaited<ReturnType<typeof openSqlite>> | undefined;
  const config = {
    database: async () => {
      const db = await openSqlite(path, waitMs, options);
      runDirectly(adapter, db, waitMs);
      opened = db;
      return db;
    },
  };
  const dialect = new SqliteDialect(config);
  dialect.createAdapter = () => adapter;
  dialect.createDriver = () => new PatientSqliteDriver(config, () => opened, waitMs);
  return dialect;
}

async function openSqlite(path: string, waitMs: number, options: ConnectionOptions) {
  const { default: Database } = await import('better-sqlite3');
  if (path !== ':memory:') {
    try {
      mkdirSync(dirname(resolve(path)), { recursive: true });
    } catch {
      // Opening the file reports it (SQLITE_CANTOPEN, a 503 until the folder can be written).
    }
  }
  const db = reuseSqliteStatements(new Database(path, { timeout: 0 }));
  try {
    await patiently(() => {
      db.pragma('journal_mode = WAL'); // readers never wait for the writer
      // FULL: a write answered 200 survives a crash of the machine, not only of the process.
      db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
      db.pragma('foreign_keys = ON'); // off by default, and per connection
    }, Date.now() + waitMs);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

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
  createKyselyDialect: openingDialect,
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
  // For a Kysely instance the application opened; `openSqlite` sets it on the store's own.
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
