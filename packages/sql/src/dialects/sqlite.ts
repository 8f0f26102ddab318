import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { AttributeSchema, ConstraintKind } from '@resourcery/core/store';
import { SqliteAdapter, SqliteDialect, sql } from 'kysely';
import type { ConnectionOptions, SqlDialectSpec } from './dialect.js';
import { doubleQuote, firstGroup, standardSql } from './shared.js';

/** Locked by another process past the busy timeout, file missing or unwritable, disk full. */
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY)/;

const KINDS: Record<string, ConstraintKind> = {
  SQLITE_CONSTRAINT_UNIQUE: 'unique',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
  SQLITE_CONSTRAINT_NOTNULL: 'not_null',
  SQLITE_CONSTRAINT_CHECK: 'check',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign_key',
  SQLITE_TOOBIG: 'check',
};

async function openSqlite(path: string, options: ConnectionOptions) {
  const { default: Database } = await import('better-sqlite3');
  if (path !== ':memory:') {
    try {
      mkdirSync(dirname(resolve(path)), { recursive: true });
    } catch {
      // Opening the file reports it (SQLITE_CANTOPEN, a 503 until the folder can be written).
    }
  }
  const db = new Database(path, { timeout: options.busyTimeoutMs ?? 5000 });
  try {
    db.pragma('journal_mode = WAL'); // readers never wait for the writer
    db.pragma('synchronous = FULL'); // a write answered 200 survives a crash of the machine, not only of the process
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

function columnType(attribute: AttributeSchema): string {
  switch (attribute.type) {
    case 'string':
      return 'TEXT'; // SQLite's default BINARY collation compares UTF-8 bytes: code point order
    case 'integer':
      return 'INTEGER';
    case 'number':
      return 'REAL';
    case 'boolean': // no boolean type: 0 or 1
      return `INTEGER CHECK (${doubleQuote(attribute.name)} IN (0, 1))`;
  }
}

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
  createKyselyDialect: (path, options) => new SqliteDialect({ database: () => openSqlite(path, options) }),
  recognizes: (adapter) => adapter instanceof SqliteAdapter,
  serverDialect: async () => sqlite,

  ...standardSql,
  // Without AUTOINCREMENT, SQLite reuses the highest id after it is deleted.
  idColumnType: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  columnType,
  columnsQuery: (table) => sql<{ name: string }>`select name from pragma_table_info(${table})`,

  supportsReturning: true,
  supportsTransactionalDdl: true,
  nullsSortFirst: true,
  nativeBooleans: false, // better-sqlite3 binds no booleans

  isUnavailable: ({ code }) => typeof code === 'string' && UNAVAILABLE.test(code),
  constraintFailure(code, { message }) {
    const kind = KINDS[code] ?? (code.startsWith('SQLITE_CONSTRAINT') ? 'other' : undefined);
    if (!kind) return undefined;
    // "UNIQUE constraint failed: books.name": a field only when it is the one column named.
    const columns = firstGroup(message, /constraint failed: (.+)$/)?.split(', ') ?? [];
    return { kind, columns: columns.length === 1 ? [columns[0]?.replace(/^.*\./, '')] : [] };
  },
};
