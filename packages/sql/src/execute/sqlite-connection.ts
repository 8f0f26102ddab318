/**
 * The store's own SQLite connection: better-sqlite3's database behind an object the store owns,
 * handed to Kysely as its `SqliteDatabase` and read by `execute` (execute.ts) directly. It keeps every
 * statement it prepared by its text (Kysely's driver prepares each query anew), so a shape seen
 * before costs a map lookup instead of SQLite's compiler.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  type DatabaseIntrospector,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { ConnectionOptions } from '../dialects/dialect.js';
import { PatientSqliteDriver, patiently } from './sqlite-busy.js';
import { isOneOff, MAX_STATEMENTS } from './statement-cache.js';

/** A better-sqlite3 statement, as the store and Kysely's driver use it. */
export interface StoreSqliteStatement {
  readonly reader: boolean;
  readonly readonly: boolean;
  /** Whether it is still iterating (a streamed query): not shared then. */
  readonly busy: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters?: readonly unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

/** The part of better-sqlite3's `Database` the connection wraps. */
interface BetterSqlite {
  readonly open: boolean;
  readonly inTransaction: boolean;
  prepare(source: string): unknown;
  close(): unknown;
}

/**
 * better-sqlite3's database with its statements kept by their text (at most 500; a statement
 * marked one-off, or still iterating, is prepared for its use alone), and how long a statement
 * may wait for another process's lock.
 *
 * @example
 * ```ts
 * const connection = new SqliteConnection(new Database('books.sqlite', { timeout: 0 }), 5000);
 * connection.prepare('select 1') === connection.prepare('select 1'); // true
 * ```
 */
export class SqliteConnection {
  readonly #database: BetterSqlite;
  readonly #statements = new Map<string, StoreSqliteStatement>();

  constructor(
    database: BetterSqlite,
    readonly waitMs: number,
  ) {
    this.#database = database;
  }

  /** Whether the database is open (false once the store closed it). */
  get open(): boolean {
    return this.#database.open;
  }

  /** Whether a transaction is open on the connection. */
  get inTransaction(): boolean {
    return this.#database.inTransaction;
  }

  /** The statement prepared for `source`, the one prepared before when it is kept. */
  prepare(source: string): StoreSqliteStatement {
    if (isOneOff(source)) return this.#database.prepare(source) as StoreSqliteStatement;
    let statement = this.#statements.get(source);
    if (statement === undefined || statement.busy) {
      statement = this.#database.prepare(source) as StoreSqliteStatement;
      if (this.#statements.size < MAX_STATEMENTS) this.#statements.set(source, statement);
    }
    return statement;
  }

  close(): void {
    this.#statements.clear();
    this.#database.close();
  }
}

/** Kysely's SQLite adapter, carrying the store's connection once it is open (for `execute`). */
export class StoreSqliteAdapter extends SqliteAdapter {
  connection: SqliteConnection | undefined;
}

async function openSqlite(path: string, waitMs: number, options: ConnectionOptions): Promise<SqliteConnection> {
  const { default: Database } = await import('better-sqlite3');
  if (path !== ':memory:') {
    try {
      mkdirSync(dirname(resolve(path)), { recursive: true });
    } catch {
      // Opening the file reports it (SQLITE_CANTOPEN, a 503 until the folder can be written).
    }
  }
  const db = new Database(path, { timeout: 0 });
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
  return new SqliteConnection(db, waitMs);
}

/**
 * The Kysely dialect of the store's own SQLite database (a file, or `:memory:`), opened on first
 * use. Nothing waits for another process's lock on the event loop (see `sqlite-busy.ts`): the
 * database has no busy timeout, and a statement refused with `SQLITE_BUSY` is tried again on a
 * timer for up to `busyTimeoutMs`.
 *
 * @example
 * ```ts
 * const db = new Kysely({ dialect: new StoreSqliteDialect('data/books.sqlite', { busyTimeoutMs: 5000 }) });
 * ```
 */
export class StoreSqliteDialect implements Dialect {
  readonly #adapter = new StoreSqliteAdapter();

  constructor(
    private readonly path: string,
    private readonly options: ConnectionOptions,
  ) {}

  createAdapter(): StoreSqliteAdapter {
    return this.#adapter;
  }

  createDriver(): Driver {
    const waitMs = this.options.busyTimeoutMs ?? 5000;
    const database = async () => {
      const connection = await openSqlite(this.path, waitMs, this.options);
      this.#adapter.connection = connection;
      return connection;
    };
    return new PatientSqliteDriver({ database }, () => this.#adapter.connection, waitMs);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
