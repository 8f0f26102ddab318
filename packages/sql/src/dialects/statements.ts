/**
 * Statements prepared once and reused: the store's queries have few shapes (a show, a page of a
 * given filter and order, an update of given columns), and Kysely compiles each to the same SQL
 * text every time. Preparing that text again for every request costs CPU, in Node (SQLite's
 * compiler runs in the process) or in the database server (PostgreSQL parses and plans it).
 */

/** How many distinct statements are kept per connection; past it, statements are prepared per use. */
const MAX_STATEMENTS = 500;

/** How the text of a statement made for one call begins: no cache keeps it (see {@link oneOff}). */
const ONE_OFF = '/* once */ ';

import type { CompiledQuery, DialectAdapter, Kysely, QueryResult } from 'kysely';
import { type GroupedDatabase, writeTogether } from './group-commit.js';
import { poolerFailure } from './pooler.js';
import { isBusy } from './sqlite-busy.js';

/** The part of better-sqlite3's `Database` that is cached. */
interface SqliteDatabase {
  prepare(source: string): { readonly busy: boolean };
}

/** The part of better-sqlite3's `Database` that runs statements without Kysely. */
interface DirectDatabase extends GroupedDatabase {
  prepare(source: string): {
    readonly reader: boolean;
    readonly readonly: boolean;
    all(parameters: readonly unknown[]): unknown[];
    run(...parameters: never[]): unknown;
  };
}

/** The SQLite databases the store opened itself (and how long a statement may wait for a lock), by the adapter of their Kysely dialect. */
const direct = new WeakMap<DialectAdapter, { readonly database: DirectDatabase; readonly waitMs: number }>();

/** The part of pg's `Pool` that runs statements without Kysely. */
interface DirectPool {
  /** Set once `end()` was called: Kysely then answers, as it does after `destroy()`. */
  readonly ending: boolean;
  connect(): Promise<{
    query(text: string, values: readonly unknown[]): Promise<{ rows: unknown[] }>;
    release(): void;
  }>;
}

/** The PostgreSQL pools the store opened itself, by the adapter of their Kysely dialect. */
const pools = new WeakMap<DialectAdapter, DirectPool>();

/**
 * Lets {@link execute} run statements of Kysely instances with this adapter on `pool`, outside
 * transactions (only the store's own PostgreSQL dialect registers).
 *
 * @example
 * ```ts
 * queryDirectly(adapter, new pg.Pool({ connectionString: url }));
 * ```
 */
export function queryDirectly(adapter: DialectAdapter, pool: DirectPool): void {
  pools.set(adapter, pool);
}

/** One statement on a connection of `pool`: what Kysely does, without its layers of promises. */
async function onPool<Row>(pool: DirectPool, statement: CompiledQuery): Promise<QueryResult<Row>> {
  const client = await pool.connect();
  try {
    return (await client.query(statement.sql, statement.parameters)) as QueryResult<Row>;
  } finally {
    client.release();
  }
}

/**
 * Lets {@link execute} run statements of Kysely instances with this adapter on `database`
 * directly (only the store's own SQLite dialect registers), a statement waiting at most `waitMs`
 * for another process's lock (tried again on a timer: see `sqlite-busy.ts`).
 *
 * @example
 * ```ts
 * runDirectly(adapter, reuseSqliteStatements(new Database('books.sqlite', { timeout: 0 })), 5000);
 * ```
 */
export function runDirectly(adapter: DialectAdapter, database: DirectDatabase, waitMs: number): void {
  direct.set(adapter, { database, waitMs });
}

/** A read on the store's own SQLite database, through Kysely only when it must wait for a lock. */
function read<Row>(
  db: Kysely<unknown>,
  prepared: ReturnType<DirectDatabase['prepare']>,
  statement: CompiledQuery,
): QueryResult<Row> | Promise<QueryResult<Row>> {
  try {
    return { rows: prepared.all(statement.parameters) as Row[] };
  } catch (error) {
    // Rare in WAL mode (a log being recovered): Kysely's driver waits for the lock on a timer.
    if (isBusy(error)) return db.executeQuery<Row>(statement);
    throw error;
  }
}

/**
 * Runs a compiled statement that answers rows. On the store's own SQLite database with no
 * transaction open it runs there and then: better-sqlite3 is synchronous, so nothing can come
 * between, and Kysely's lock of the one connection (a few promise turns per query) is only
 * needed to keep other statements out of an open transaction; a write is committed with the
 * other writes of this turn of the event loop ({@link writeTogether}). A statement that meets
 * another process's lock is tried again on a timer, never waited for on the event loop. Outside a transaction on
 * the store's own PostgreSQL pool, it runs on a connection of the pool as Kysely would, without
 * Kysely's layers around it (a few µs of CPU per query). Otherwise Kysely runs it.
 *
 * @example
 * ```ts
 * const { rows } = await execute(db, db.selectFrom('books').selectAll().compile());
 * ```
 */
export function execute<Row>(
  db: Kysely<unknown>,
  statement: CompiledQuery,
): QueryResult<Row> | Promise<QueryResult<Row>> {
  const { adapter } = db.getExecutor();
  const sqlite = direct.get(adapter);
  const database = sqlite?.database;
  if (sqlite && database?.open && !database.inTransaction) {
    let prepared: ReturnType<DirectDatabase['prepare']>;
    try {
      prepared = database.prepare(statement.sql);
    } catch (error) {
      // The schema could not be read for another process's lock: Kysely's driver waits for it.
      if (isBusy(error)) return db.executeQuery<Row>(statement);
      throw error;
    }
    if (prepared.reader && prepared.readonly) return read<Row>(db, prepared, statement);
    if (prepared.reader) return writeTogether(database, prepared, db, statement, sqlite.waitMs);
  }
  const pool = pools.get(adapter);
  if (pool && !pool.ending && !db.isTransaction) return onPool<Row>(pool, statement);
  return db.executeQuery<Row>(statement);
}

/**
 * The statement marked as made for one call: a multi-row INSERT, whose text changes with its
 * number of rows. Neither SQLite's cache of prepared statements nor PostgreSQL's named
 * statements keep it, so that it never takes the place of the statements that recur.
 *
 * @example
 * ```ts
 * await execute(db, oneOff(db.insertInto('books').values(rows).returning('id').compile()));
 * ```
 */
export function oneOff(statement: CompiledQuery): CompiledQuery {
  return { ...statement, sql: `${ONE_OFF}${statement.sql}` };
}

/**
 * Makes `db.prepare(sql)` answer the statement prepared earlier for the same text (Kysely's
 * SQLite driver prepares every query it runs). A statement still iterating (a streamed query)
 * is not shared: that use gets a statement of its own.
 *
 * @example
 * ```ts
 * const db = reuseSqliteStatements(new Database('books.sqlite'));
 * ```
 */
export function reuseSqliteStatements<T extends SqliteDatabase>(db: T): T {
  const prepare = db.prepare.bind(db);
  const statements = new Map<string, ReturnType<T['prepare']>>();
  db.prepare = ((source: string) => {
    if (source.startsWith(ONE_OFF)) return prepare(source);
    let statement = statements.get(source);
    if (statement === undefined || statement.busy) {
      statement = prepare(source) as ReturnType<T['prepare']>;
      if (statements.size < MAX_STATEMENTS) statements.set(source, statement);
    }
    return statement;
  }) as T['prepare'];
  return db;
}

/** The part of pg's `Client` that is wrapped. */
interface PgClient {
  query(...args: never[]): unknown;
}

/** pg's connection, which remembers the statements it has prepared (not in pg's types). */
type Prepared = { connection?: { parsedStatements?: Record<string, string> } };

/** Statements worth preparing: the store's reads and writes, not DDL or transaction control. */
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\s/i;

/** Statement names by SQL text, shared by every connection (each prepares a name once, when first used). */
const names = new Map<string, string>();

function nameOf(text: string): string | undefined {
  if (text.startsWith(ONE_OFF)) return undefined;
  let name = names.get(text);
  if (name === undefined && names.size < MAX_STATEMENTS && DATA_STATEMENT.test(text)) {
    name = `resourcery_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Makes the client run the store's statements as named prepared statements: PostgreSQL parses
 * each text once per connection instead of once per query (and plans it for each run's values).
 * Queries with a config object or a callback are left as they are.
 *
 * @example
 * ```ts
 * pool.on('connect', (client) => preparePostgresStatements(client));
 * ```
 */
export function preparePostgresStatements(client: PgClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  // After five runs PostgreSQL may switch a prepared statement to a generic plan, made without
  // the values: for a filtered page it walks the sort index and discards most rows instead of
  // reading the few that match. A plan per run keeps the parsing saved and the plans right.
  // Sent first on the new connection; a server without the setting (before 12) keeps its own.
  query('SET plan_cache_mode = force_custom_plan').catch(() => {});
  const prepared = (name: string, text: string, values: unknown[]) =>
    query({ name, text, values }).catch(async (error: { code?: string }) => {
      // Lost or found on another server connection: a transaction pooler (see pooler.ts).
      const pooled = poolerFailure(error);
      if (pooled) throw pooled;
      // A table changed under the statement (its result columns changed type): PostgreSQL
      // refuses to run it again (0A000, before running anything), so it is prepared anew.
      if (error?.code !== '0A000') throw error;
      await query(`DEALLOCATE ${name}`);
      delete (client as Prepared).connection?.parsedStatements?.[name];
      return query({ name, text, values });
    });
  client.query = ((...args: unknown[]) => {
    const [text, values] = args;
    const name = args.length === 2 && typeof text === 'string' && Array.isArray(values) ? nameOf(text) : undefined;
    return name === undefined ? query(...args) : prepared(name, text as string, values as unknown[]);
  }) as PgClient['query'];
}
