import type { Change, ChangeLog } from '@resourcery/core/store';
import type { Kysely } from 'kysely';
import type { SqlDialectSpec } from '../dialects/dialect.js';
import { PgListener } from './listen.js';
import {
  type LogTables,
  logTables,
  type PendingChange,
  pruneChanges,
  readChanges,
  readHead,
  writeChanges,
} from './log-sql.js';
import { RecentChanges } from './recent.js';
import { ensureChangeTables } from './tables.js';

// biome-ignore lint/suspicious/noExplicitAny: the library's own tables, known at run time
type Db = Kysely<any>;

/**
 * The `changes` option of `sqlStore`: how long changes are kept, and how other processes' commits
 * are noticed.
 *
 * @example
 * ```ts
 * sqlStore('postgres://app@pgbouncer:6432/app?preparedStatements=false', {
 *   changes: { retentionMs: 30 * 60_000, listenUrl: 'postgres://app@db:5432/app' },
 * });
 * ```
 */
export interface ChangeLogOptions {
  /** How long a committed change is kept at least (a reconnecting reader replays it). Default: 15 minutes. */
  readonly retentionMs?: number;
  /**
   * How often a watched log looks for other processes' commits: MySQL and MariaDB, and
   * PostgreSQL without a LISTEN connection, default 250 ms; SQLite 500 ms; PostgreSQL with
   * LISTEN 2 s (a safety net: NOTIFY wakes it at once).
   */
  readonly pollMs?: number;
  /**
   * PostgreSQL: a direct URL (not through a transaction pooler) for the one connection that
   * `LISTEN`s. Behind PgBouncer in transaction mode (`preparedStatements: false`) LISTEN does not
   * work through the pooler: without this the log polls every `pollMs`.
   */
  readonly listenUrl?: string;
}

/** What the log needs of its store. */
export interface LogSetup {
  readonly db: Db;
  /** The store's dialect (MySQL's becomes MariaDB's after `init`). */
  readonly dialect: () => SqlDialectSpec;
  readonly tablePrefix: string;
  readonly createTables: boolean;
  readonly secret: (name: string) => Promise<string>;
  /** PostgreSQL's URL to LISTEN on, if any (see `listenLocation`). */
  readonly listenUrl?: string;
  readonly options: ChangeLogOptions;
}

/** The longest pause between two prunings. */
const PRUNE_EVERY_MS = 60_000;

/**
 * A SQL store's {@link ChangeLog}: the changes of its live collections in the table
 * `<tablePrefix>resourcery_changes`, written by each transaction just before its commit
 * ({@link writeChanges}: numbered in commit order), woken at once by this process's commits,
 * by PostgreSQL's NOTIFY (one LISTEN connection while watched), and by a poll; pruned in the
 * background, at most once a minute, of the changes older than `retentionMs`.
 *
 * @example
 * ```ts
 * const log = store.changes();
 * const stop = log.watch(() => void log.read(position, 100).then(deliver));
 * ```
 */
export class SqlChangeLog implements ChangeLog {
  readonly retentionMs: number;
  readonly #setup: LogSetup;
  readonly #tables: LogTables;
  readonly #watchers = new Set<() => void>();
  #ready: Promise<void> | undefined;
  #poll: ReturnType<typeof setInterval> | undefined;
  #listener: PgListener | undefined;
  #lastHead = -1;
  #lastPrune = 0;
  #pruning: Promise<void> | undefined;
  /** Tells this store's own notifications from those of other processes. */
  readonly #instance = crypto.randomUUID();
  /** This process's latest commits, read back without a query (see {@link RecentChanges}). */
  readonly #recent: RecentChanges;
  /** Whether another process may have committed since the table was last read to its end. */
  #foreign = true;
  /** How many times another process was heard of (a read that began before one does not clear `#foreign`). */
  #foreignSigns = 0;

  constructor(setup: LogSetup) {
    this.#setup = setup;
    this.retentionMs = setup.options.retentionMs ?? 15 * 60_000;
    this.#tables = logTables(setup.tablePrefix);
    this.#recent = new RecentChanges(10_000, this.retentionMs);
  }

  /** The tables exist (created when allowed): `init` waits for it when some schema is live. */
  prepare(): Promise<void> {
    if (!this.#ready) {
      const { db, dialect, tablePrefix, createTables } = this.#setup;
      const ready = ensureChangeTables(db, dialect(), { tablePrefix, create: createTables });
      this.#ready = ready;
      ready.catch(() => {
        if (this.#ready === ready) this.#ready = undefined;
      });
    }
    return this.#ready;
  }

  async read(after: number, limit: number): Promise<readonly Change[] | 'gone'> {
    // This process's own commits are read back from memory while no other process may have committed.
    const recent = this.#foreign ? undefined : this.#recent.after(after, limit);
    if (recent) return recent;
    await this.prepare();
    const signs = this.#foreignSigns;
    const read = await readChanges(this.#setup.db, this.#tables, after, limit);
    // Caught up with the table, and no other process was heard of meanwhile.
    if (read !== 'gone' && read.length < limit && signs === this.#foreignSigns) this.#foreign = false;
    return read;
  }

  async head(): Promise<number> {
    await this.prepare();
    return readHead(this.#setup.db, this.#tables);
  }

  async epoch(): Promise<string> {
    return (await this.#setup.secret('changes')).slice(0, 16);
  }

  watch(wake: () => void): () => void {
    const own = () => wake();
    this.#watchers.add(own);
    if (this.#watchers.size === 1) this.#start();
    return () => {
      if (this.#watchers.delete(own) && this.#watchers.size === 0) this.#stop();
    };
  }

  /** Writes a transaction's changes, its last statements before COMMIT (see {@link writeChanges}). */
  flush(tx: Db, pending: readonly PendingChange[]): Promise<readonly number[]> {
    return writeChanges(
      tx,
      this.#setup.dialect(),
      this.#tables,
      { channel: this.#tables.changes, payload: this.#instance },
      pending,
    );
  }

  /** A transaction with changes committed: kept for this process's readers, who are woken; prunes now and then. */
  committed(pending: readonly PendingChange[], positions: readonly number[]): void {
    this.#recent.add(pending, positions);
    this.#wakeAll();
    this.#maybePrune();
  }

  /** Stops watching and waits for a pruning under way (the store closes). */
  async close(): Promise<void> {
    this.#watchers.clear();
    this.#stop();
    await this.#pruning;
  }

  /** Another process committed (or may have: a listener back after a drop): read the table. */
  #wakeForeign(): void {
    this.#foreign = true;
    this.#foreignSigns++;
    this.#wakeAll();
  }

  #wakeAll(): void {
    for (const wake of [...this.#watchers]) {
      try {
        wake();
      } catch {
        // A watcher's failure is its own.
      }
    }
  }

  #start(): void {
    const { dialect, listenUrl, options } = this.#setup;
    const name = dialect().name;
    const listening = name === 'postgres' && listenUrl !== undefined;
    // A notification of this store's own commits is skipped: they woke the watchers at once.
    if (listening)
      this.#listener = new PgListener(listenUrl, this.#tables.changes, () => this.#wakeForeign(), this.#instance);
    const every = options.pollMs ?? (listening ? 2000 : name === 'sqlite' ? 500 : 250);
    this.#poll = setInterval(() => void this.#look(), every);
    this.#poll.unref?.();
  }

  #stop(): void {
    clearInterval(this.#poll);
    this.#poll = undefined;
    this.#listener?.close();
    this.#listener = undefined;
    this.#lastHead = -1;
  }

  /** The poll: wakes the watchers when the head moved (another process committed). */
  async #look(): Promise<void> {
    try {
      const head = await this.head();
      if (head !== this.#lastHead) {
        this.#lastHead = head;
        if (head > this.#recent.highest) {
          this.#foreign = true;
          this.#foreignSigns++;
        }
        this.#wakeAll();
      }
      this.#maybePrune();
    } catch {
      // The database is away: the next poll tries again.
    }
  }

  #maybePrune(): void {
    const now = Date.now();
    if (this.#pruning || now - this.#lastPrune < Math.min(PRUNE_EVERY_MS, this.retentionMs)) return;
    this.#lastPrune = now;
    const cutoff = now - this.retentionMs;
    this.#pruning = pruneChanges(this.#setup.db, this.#tables, cutoff)
      .catch(() => {})
      .finally(() => {
        this.#pruning = undefined;
      });
  }
}
