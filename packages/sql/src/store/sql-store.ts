import type {
  ChangeLog,
  Collection,
  CollectionSchema,
  Store,
  StoreTransaction,
  TransactionOptions,
} from '@resourcery/core/store';
import type { Kysely } from 'kysely';
import { type ChangeLogOptions, SqlChangeLog } from '../changes/change-log.js';
import { listenLocation } from '../changes/listen.js';
import { collectionOn, type LiveContext } from '../changes/live-collection.js';
import { referencedFirst, StoreCatalog } from '../ddl/catalog.js';
import { ensureTable } from '../ddl/table-setup.js';
import { type ConnectionOptions, detectDialect, dialectNamed, type SqlDialect } from '../dialects/index.js';
import { CollectionPlan, type Db } from './collection-plan.js';
import { openDatabase } from './open-database.js';
import type { ReplicaOptions, ReplicaStatus } from './replica-options.js';
import { openReplicas } from './replicas.js';
import { type RetryOptions, RetryPolicy } from './retries.js';
import { inTransaction, type OpenTransaction } from './run-transaction.js';
import { SECRETS_SCHEMA, SecretKeeper } from './secrets.js';
import { SqlCollection } from './sql-collection.js';
import { SqlStoreTransaction } from './sql-transaction.js';
import { conflictCode, translateDriverError } from './translate-error.js';

/** Options of {@link sqlStore}. */
export interface SqlStoreOptions extends ConnectionOptions {
  /**
   * The dialect of a Kysely instance built on a dialect other than Kysely's own three
   * (detected otherwise). MySQL and MariaDB are told apart by asking the server.
   */
  readonly dialect?: SqlDialect;
  /** Prefix of every table name (`app_` stores `books` in `app_books`). Default: none. */
  readonly tablePrefix?: string;
  /**
   * Whether `init` creates missing tables. With `false` it only checks that they exist and match
   * the declarations (for schemas managed by migrations, see `migrationsFor`). Default: `true`.
   */
  readonly createTables?: boolean;
  /**
   * Whether and how a transaction (`store.transaction`, a request's `ctx.transaction`, a bulk
   * write) or a write outside any runs again when the database aborts it for a conflict with
   * another transaction (a serialization failure or a deadlock; PostgreSQL, MySQL, MariaDB):
   * see {@link RetryOptions}. `false`: never, the conflict answers 503 at once. Default: at most
   * 3 attempts, pauses of up to 10, 20 ms (full jitter), all within 2 s.
   */
  readonly retries?: RetryOptions | false;
  /**
   * The change log of the live collections (schemas with `live: true`, see `changes()`): how long
   * changes are kept (`retentionMs`, default 15 minutes), how often other processes' commits are
   * looked for (`pollMs`), and, behind a transaction pooler, a direct PostgreSQL URL to LISTEN on
   * (`listenUrl`; without it such a store polls). See docs/stores.md, "Change log".
   */
  readonly changes?: ChangeLogOptions;
  /** Read replicas of a PostgreSQL primary, for the reads outside transactions: see {@link ReplicaOptions}. */
  readonly replicas?: readonly string[] | ReplicaOptions;
}

/** A {@link Store} over a SQL database. */
export interface SqlStoreProvider extends Store {
  /** The database's dialect (`mysql` becomes `mariadb` after `init` when the server is MariaDB). */
  readonly dialect: SqlDialect;
  /** The Kysely instance the stores use, for queries of your own. */
  // biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
  readonly db: Kysely<any>;
  collection(schema: CollectionSchema): Collection;
  /**
   * Runs `work` in one transaction over every collection (`tx.collection(schema)`), at
   * `options.isolation` if given. When the database aborts it for a conflict, `work` runs again
   * from the start on a new transaction (see `retries`), unless `options.retry` is `false` or
   * `work` called `tx.sideEffect()`.
   */
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Connects and creates missing tables (referenced ones first) with their indexes and
   * constraints; never alters an existing table, and refuses one that does not match its
   * declaration (a missing column, another type, another nullability).
   */
  init(schemas: readonly CollectionSchema[]): Promise<void>;
  /** Closes the connections it opened (a Kysely instance passed in is left to its owner). */
  close(): Promise<void>;
  /**
   * A random secret kept in the database under `name` (1 to 100 characters), in the library's
   * own table `<tablePrefix>resourcery_secrets` (created when first needed, even with
   * `createTables: false`): made by the first process that asks, then the same for every process
   * on the database and across restarts.
   *
   * @example
   * ```ts
   * const key = await store.secret('cursor'); // the same 43 characters in every process
   * ```
   */
  secret(name: string): Promise<string>;
  /**
   * The log of the committed changes of the live collections (schemas with `live: true`), in
   * the tables `<tablePrefix>resourcery_changes` and `…_state` that `init` makes when a schema is
   * live: each write of a live collection adds its change in its own transaction, numbered in
   * commit order. Watching wakes at once for this process's commits; for other processes', on
   * PostgreSQL's NOTIFY (one LISTEN connection while watched, plus a poll every 2 s), else by
   * polling. The same object at each call.
   *
   * @example
   * ```ts
   * const log = store.changes();
   * const stop = log.watch(async () => console.log(await log.read(0, 100)));
   * ```
   */
  changes(): ChangeLog;
  /** What the store knows of each read replica (`replicas`; {@link ReplicaStatus}), for health pages and metrics. */
  replicaStatus(): ReplicaStatus[];
}

/**
 * Stores resources in SQLite, PostgreSQL, MySQL or MariaDB through Kysely: one table per
 * resource, queries pushed down to the database (filters, order, paging, counts), binary string
 * order and equality everywhere. Pass a URL, or a Kysely instance you already have.
 * Unreachable databases answer 503 until they are back; constraint errors 409 or 422.
 *
 * @param target - `sqlite:<path>`, `sqlite::memory:`, `postgres://…`, `postgresql://…`,
 * `mysql://…`, `mariadb://…`, or a `Kysely` instance.
 *
 * @example
 * ```ts
 * import { sqlStore } from '@resourcery/sql';
 *
 * const store = sqlStore(process.env.DATABASE_URL ?? 'sqlite:data/books.sqlite');
 * app.use('/api', resourcery({ resources: [books], store }));
 * ```
 * @example
 * ```ts
 * const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
 * const store = sqlStore(db, { tablePrefix: 'api_' });
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: any Kysely instance, whatever its table types
export function sqlStore(target: string | Kysely<any>, options: SqlStoreOptions = {}): SqlStoreProvider {
  const opened = typeof target === 'string' ? openDatabase(target, options) : undefined;
  const db = opened?.db ?? (target as Kysely<unknown>);
  const detected = options.dialect ? dialectNamed(options.dialect) : (opened?.dialect ?? detectDialect(db));
  if (!detected) throw new TypeError('sqlStore: cannot tell the dialect of this Kysely instance; set options.dialect');
  // MySQL and MariaDB share every query but the bulk create's INSERT … RETURNING (MariaDB's):
  // collections made before `init` tells them apart are right, and then get the server's dialect.
  let dialect = detected;
  const tablePrefix = options.tablePrefix ?? '';
  const catalog = new StoreCatalog(tablePrefix);
  const retries = RetryPolicy.of(options.retries);
  const replicas = openReplicas(db, detected, options.replicas, options);
  const plans = new Map<CollectionSchema, CollectionPlan>();
  const planOf = (schema: CollectionSchema) => {
    let plan = plans.get(schema);
    if (!plan) {
      catalog.add(schema);
      plan = new CollectionPlan(schema, dialect, catalog, retries, replicas);
      plans.set(schema, plan);
    }
    return plan;
  };
  const translate = (error: unknown) => translateDriverError(error, undefined, [dialect], { catalog });
  let serverChecked = false;
  /** Tells MySQL from MariaDB and prepares a Kysely instance given by the application, once. */
  const checkServer = async () => {
    if (serverChecked) return;
    dialect = await dialect.serverDialect(db);
    for (const plan of plans.values()) plan.dialect = dialect;
    await dialect.prepareConnection(db);
    serverChecked = true;
  };
  let secretsTable: Promise<Collection> | undefined;
  const secrets = new SecretKeeper(() => {
    if (secretsTable) return secretsTable;
    const opening = (async () => {
      try {
        await checkServer();
        await ensureTable(db, SECRETS_SCHEMA, dialect, { tablePrefix, create: true });
      } catch (error) {
        throw translate(error);
      }
      return new SqlCollection(planOf(SECRETS_SCHEMA), db, undefined, undefined, true); // on the primary
    })();
    secretsTable = opening;
    opening.catch(() => {
      if (secretsTable === opening) secretsTable = undefined;
    });
    return opening;
  });

  const log = new SqlChangeLog({
    db,
    dialect: () => dialect,
    tablePrefix,
    createTables: options.createTables !== false,
    secret: (name) => secrets.get(name),
    listenUrl: listenLocation(target, { ...options, ...options.changes }),
    options: options.changes ?? {},
  });
  const live: LiveContext = { log, planOf };

  return {
    get dialect() {
      return dialect.name;
    },
    db,
    collection(schema) {
      return collectionOn(planOf(schema), db, live);
    },
    transaction(work, { isolation, retry, onRetry } = {}) {
      let open: OpenTransaction | undefined;
      const attempt = () => {
        open = undefined;
        const run = (tx: Db, state: OpenTransaction) => {
          open = state;
          state.sideEffects = retry === false;
          return work(new SqlStoreTransaction(tx, state, planOf, translate, live));
        };
        return inTransaction(db, undefined, run, translate, isolation).finally(() => replicas?.wrote());
      };
      if (!retries || retry === false) return attempt();
      const started = Date.now();
      // Run again only when nothing of it went outside the database (`tx.sideEffect()`).
      const conflict = (error: unknown) => (open?.sideEffects ? undefined : conflictCode(error));
      return attempt().catch((error) =>
        retries.retry(error, started, attempt, conflict, { scope: 'transaction' }, onRetry),
      );
    },
    async init(schemas) {
      try {
        await checkServer();
        for (const schema of schemas) catalog.add(schema);
        for (const schema of referencedFirst(schemas)) {
          const stored = catalog.schema(schema.name) ?? schema;
          await ensureTable(db, stored, dialect, { tablePrefix, create: options.createTables !== false });
        }
        if (schemas.some((schema) => schema.live)) await log.prepare();
      } catch (error) {
        throw translate(error);
      } finally {
        replicas?.wrote(); // tables made on the primary: read there until the replicas have them
      }
    },
    async close() {
      await log.close();
      await replicas?.close();
      if (opened) await db.destroy();
    },
    secret: (name) => secrets.get(name),
    changes: () => log,
    replicaStatus: () => replicas?.status() ?? [],
  };
}
