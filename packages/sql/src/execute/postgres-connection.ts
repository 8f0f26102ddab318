/**
 * The store's own PostgreSQL connections: a pg pool behind an object the store owns, handed to
 * Kysely as its pool and used by `execute` (execute.ts) directly, whose clients run the store's
 * statements as named prepared statements.
 */
import type { CompiledQuery, PostgresPool, PostgresPoolClient, QueryResult } from 'kysely';
import { PostgresAdapter, PostgresDialect } from 'kysely';
import type { Pool, PoolClient } from 'pg';
import type { ConnectionOptions } from '../dialects/dialect.js';
import { poolerFailure } from './pooler.js';
import { isOneOff, MAX_STATEMENTS } from './statement-cache.js';

/** pg's type id of `DATE`, which its default parser turns into a local-time JS Date. */
const DATE_OID = 1082;
const keepText = (value: string) => value;

/** Statements worth preparing: the store's reads and writes, not DDL or transaction control. */
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\s/i;

/** How Kysely opens a transaction: `begin`, or `start transaction isolation level …`. */
const TRANSACTION_START = /^\s*(begin|start transaction)\b/i;

/**
 * What a transaction runs first, after the `begin`, in the same round trip: PostgreSQL's own
 * `plan_cache_mode` for the transaction. The connection forces a plan per run (below) for the
 * store's reads; in a write, the statements PostgreSQL runs for the store (each foreign key's
 * check, the kept count's triggers) would then be planned again for every row, where their plans
 * are otherwise kept: 500 plans for a bulk create of 100 issues with their labels.
 */
const IN_TRANSACTION = '; set local plan_cache_mode = auto';

/** Statement names by SQL text, shared by every connection (each prepares a name once, when first used). */
const names = new Map<string, string>();

function nameOf(text: string): string | undefined {
  if (isOneOff(text)) return undefined;
  let name = names.get(text);
  if (name === undefined && names.size < MAX_STATEMENTS && DATA_STATEMENT.test(text)) {
    name = `resourcery_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

/** What the store uses of pg's module (its default export). */
type PgModule = { readonly Client: typeof import('pg').Client };

/**
 * pg's `Client` that runs the store's statements (a text with an array of values) as named
 * prepared statements: PostgreSQL parses each text once per connection instead of once per query
 * (and plans it for each run's values, `plan_cache_mode` below). Queries with a config object or
 * a callback are run as pg runs them.
 */
function preparingClient(pg: PgModule): new () => PoolClient {
  return class PreparingClient extends pg.Client {
    /** Statements prepared again under another name after a table changed under them. */
    readonly #renamed = new Map<string, string>();
    #renames = 0;

    // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; one form is changed
    override query(...args: any[]): any {
      const [text, values] = args;
      const textAndValues = args.length === 2 && typeof text === 'string' && Array.isArray(values);
      // A text without values is sent as a simple query, which may hold several statements.
      if (textAndValues && values.length === 0 && TRANSACTION_START.test(text))
        return super.query(`${text}${IN_TRANSACTION}`);
      const name = textAndValues ? nameOf(text) : undefined;
      // biome-ignore lint/suspicious/noExplicitAny: as above
      if (name === undefined) return (super.query as (...args: any[]) => any)(...args);
      return this.#prepared(name, text, values);
    }

    /**
     * A named statement run with pg's callback, not its promise: the rows of a query run through
     * pg's promise stay alive longer, and more of each young-generation collection survives it
     * (a loop of 3,000 pages: 3.4 MB a collection against 2 KB; docs/performance.md, tenth round).
     */
    #named(config: { name: string; text: string; values: unknown[] }): Promise<unknown> {
      return new Promise((resolve, reject) => {
        super.query(config, (error: Error | null, result: unknown) => (error ? reject(error) : resolve(result)));
      });
    }

    #prepared(name: string, text: string, values: unknown[]): Promise<unknown> {
      const current = this.#renamed.get(name) ?? name;
      return this.#named({ name: current, text, values }).catch(async (error: { code?: unknown }) => {
        // Lost or found on another server connection: a transaction pooler (see pooler.ts).
        const pooled = poolerFailure(error);
        if (pooled) throw pooled;
        // A table changed under the statement (its result columns changed type): PostgreSQL
        // refuses to run it again (0A000, before running anything), so it is prepared anew.
        if (error?.code !== '0A000') throw error;
        await super.query(`DEALLOCATE ${current}`);
        const again = `${name}_${++this.#renames}`;
        this.#renamed.set(name, again);
        return this.#named({ name: again, text, values });
      });
    }
  } as unknown as new () => PoolClient;
}

/**
 * The store's pool as Kysely's pool: a connection a transaction pooler refuses fails with an
 * error that says what to set, and {@link StorePool.run} runs one statement on a connection
 * without Kysely's layers of promises.
 *
 * @example
 * ```ts
 * const { rows } = await pool.run(db.selectFrom('books').selectAll().compile());
 * ```
 */
export class StorePool implements PostgresPool {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  /** Set once `end()` was called: Kysely then answers, as it does after `destroy()`. */
  get ending(): boolean {
    return this.#pool.ending;
  }

  connect(): Promise<PostgresPoolClient & PoolClient> {
    return this.#pool.connect().catch((error: unknown) => {
      throw poolerFailure(error) ?? error;
    });
  }

  end(): Promise<void> {
    return this.#pool.end();
  }

  /** One statement on a connection of the pool: what Kysely does, without its layers. */
  async run<Row>(statement: CompiledQuery): Promise<QueryResult<Row>> {
    const client = await this.connect();
    try {
      return (await client.query(statement.sql, statement.parameters as unknown[])) as QueryResult<Row>;
    } finally {
      client.release();
    }
  }
}

async function openPostgres(url: string, options: ConnectionOptions): Promise<StorePool> {
  const { default: pg } = await import('pg');
  // `false`: nothing kept on a connection, which a transaction pooler would lose (pooler.ts).
  const prepared = options.preparedStatements !== false;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    // Bounds the wait for a free connection of the pool too, not only the connect.
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    // A statement waiting for a lock (a row another transaction updates, a locked table) fails
    // with 55P03 after this, a 503, instead of holding its request and its connection.
    lock_timeout: prepared ? (options.lockTimeoutMs ?? 5000) : undefined,
    // `DATE` stays `YYYY-MM-DD` text, whatever the machine's time zone. Set on this pool only, so
    // that the application's own pg code keeps pg's global parsers.
    types: {
      getTypeParser: (oid: number, format?: string) =>
        oid === DATE_OID ? keepText : pg.types.getTypeParser(oid, format as 'text'),
    },
    ...(prepared ? { Client: preparingClient(pg) } : {}),
  });
  // pg emits 'error' when the server drops a connection, on the pool for idle clients and on the
  // client itself when it is checked out; without listeners either would kill the process. The
  // query in flight fails (503), the broken client leaves the pool, the next query reconnects.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
    // After five runs PostgreSQL may switch a prepared statement to a generic plan, made without
    // the values: for a filtered page it walks the sort index and discards most rows instead of
    // reading the few that match. A plan per run keeps the parsing saved and the plans right.
    // Sent first on the new connection; a server without the setting (before 12) keeps its own.
    if (prepared) client.query('SET plan_cache_mode = force_custom_plan').catch(() => {});
  });
  return new StorePool(pool);
}

/** Kysely's PostgreSQL adapter, carrying the store's pool once it is open (for `execute`). */
export class StorePostgresAdapter extends PostgresAdapter {
  pool: StorePool | undefined;
}

/**
 * The Kysely dialect of the store's own PostgreSQL pool, opened (and pg loaded) on first use.
 *
 * @example
 * ```ts
 * const db = new Kysely({ dialect: new StorePostgresDialect('postgres://app@db/books', { poolSize: 10 }) });
 * ```
 */
export class StorePostgresDialect extends PostgresDialect {
  readonly #adapter: StorePostgresAdapter;

  constructor(url: string, options: ConnectionOptions, adapter = new StorePostgresAdapter()) {
    super({
      pool: async () => {
        adapter.pool = await openPostgres(url, options);
        return adapter.pool;
      },
    });
    this.#adapter = adapter;
  }

  override createAdapter(): StorePostgresAdapter {
    return this.#adapter;
  }
}

/**
 * The store's dialect for a PostgreSQL URL ({@link StorePostgresDialect}), after checking that
 * the options go together.
 *
 * @throws TypeError for `lockTimeoutMs` with `preparedStatements: false`.
 * @example
 * ```ts
 * const db = new Kysely({ dialect: postgresDialect('postgres://app@db/books', {}) });
 * ```
 */
export function postgresDialect(url: string, options: ConnectionOptions): StorePostgresDialect {
  if (options.preparedStatements === false && options.lockTimeoutMs !== undefined) {
    throw new TypeError(
      "sqlStore: lockTimeoutMs is a setting of the connection, which preparedStatements: false keeps none of (a transaction pooler would lose it): set lock_timeout on the database role instead (ALTER ROLE app SET lock_timeout = '5s')",
    );
  }
  return new StorePostgresDialect(url, options);
}
