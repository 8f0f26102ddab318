import { StoreUnavailable } from '@resourcery/core/store';
import { sql } from 'kysely';
import type { ConnectionOptions, SqlDialectSpec } from '../dialects/dialect.js';
import { postgres } from '../dialects/postgres.js';
import type { Db } from './collection-plan.js';
import { openDatabase, parseDatabaseUrl, redactUrl } from './open-database.js';
import type { ReplicaOptions, ReplicaStatus } from './replica-options.js';
import { conflictCode, translateDriverError } from './translate-error.js';

interface Replica {
  readonly url: string;
  readonly db: Db;
  state: ReplicaStatus['state'];
  lagMs: number | undefined;
  checkedAt: number | undefined;
  /** Every write committed before this time (epoch ms) is visible on it, as of its last check. */
  visibleUpTo: number;
  reads: number;
  fallbacks: number;
}

/** Rejects when `promise` takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A failure that says the replica cannot be reached (not a conflict with its recovery, which it may answer again at once). */
function unreachable(error: unknown): boolean {
  return translateDriverError(error, undefined, [postgres]) instanceof StoreUnavailable && !conflictCode(error);
}

/**
 * Routes a store's reads outside transactions to its replicas: in turn over those that answered
 * their last check within the lag bound (and, with `readYourWrites: 'process'`, have replayed
 * the store's last write), else to the primary. A read that fails on a replica runs once on the
 * primary; a replica that cannot be reached is skipped until a check finds it again.
 *
 * @example
 * ```ts
 * const replicas = new ReplicaSet(primaryDb, [{ url, db: replicaDb }], { maxLagMs: 1000 });
 * const rows = await replicas.read((db) => select.execute(db), () => select.execute(primaryDb));
 * ```
 */
export class ReplicaSet {
  readonly #primary: Db;
  readonly #replicas: Replica[];
  readonly #maxLagMs: number;
  readonly #intervalMs: number;
  readonly #timeoutMs: number;
  readonly #perProcess: boolean;
  #next = 0;
  #lastCheck = Number.NEGATIVE_INFINITY;
  #checking: Promise<void> | undefined;
  #lastWriteAt = Number.NEGATIVE_INFINITY;

  constructor(primary: Db, replicas: readonly { url: string; db: Db }[], options: Omit<ReplicaOptions, 'urls'> = {}) {
    this.#primary = primary;
    this.#replicas = replicas.map(({ url, db }) => ({
      url: redactUrl(url),
      db,
      state: 'unknown',
      lagMs: undefined,
      checkedAt: undefined,
      visibleUpTo: Number.NEGATIVE_INFINITY,
      reads: 0,
      fallbacks: 0,
    }));
    this.#maxLagMs = options.maxLagMs ?? 1000;
    this.#intervalMs = options.checkIntervalMs ?? 1000;
    this.#timeoutMs = Math.max(this.#intervalMs, 1000);
    this.#perProcess = (options.readYourWrites ?? 'process') === 'process';
  }

  /** The store wrote (committed, or tried to): with `readYourWrites: 'process'`, reads go to the primary until a replica has replayed it. */
  wrote(): void {
    if (this.#perProcess) this.#lastWriteAt = Date.now();
  }

  /** Runs a read on a replica (`work` given its Kysely instance), else, or after it failed there, with `onPrimary`. */
  async read<T>(work: (db: Db) => Promise<T>, onPrimary: () => Promise<T>): Promise<T> {
    const replica = this.#pick();
    if (!replica) return onPrimary();
    let result: T;
    try {
      result = await work(replica.db);
    } catch (error) {
      replica.fallbacks += 1;
      if (unreachable(error)) replica.state = 'down';
      return onPrimary();
    }
    replica.reads += 1;
    return result;
  }

  /** What is known of each replica. */
  status(): ReplicaStatus[] {
    return this.#replicas.map(({ url, state, lagMs, checkedAt, reads, fallbacks }) => ({
      url,
      state,
      lagMs,
      checkedAt,
      reads,
      fallbacks,
    }));
  }

  /** Waits for a check in flight, then closes the replicas' connections. */
  async close(): Promise<void> {
    await this.#checking;
    await Promise.all(this.#replicas.map((replica) => replica.db.destroy()));
  }

  /** The next replica that may serve a read now, if any; starts a check when the last one is old enough. */
  #pick(): Replica | undefined {
    const now = Date.now();
    if (!this.#checking && now - this.#lastCheck >= this.#intervalMs) this.#check();
    const count = this.#replicas.length;
    for (let step = 0; step < count; step++) {
      const at = (this.#next + step) % count;
      const replica = this.#replicas[at] as Replica;
      const fresh = replica.checkedAt !== undefined && now - replica.checkedAt <= this.#intervalMs + this.#timeoutMs;
      if (replica.state === 'ready' && fresh && this.#lastWriteAt < replica.visibleUpTo) {
        this.#next = at + 1;
        return replica;
      }
    }
    return undefined;
  }

  /**
   * Measures each replica in the background: the primary's WAL position first, then how far
   * each replica has replayed. One that has replayed it is 0 ms behind; one that has not is as
   * far behind as its last replayed transaction is old (an upper bound: what it lacks was
   * committed later). When the primary does not answer, against what the replica received.
   */
  #check(): void {
    const started = Date.now();
    this.#lastCheck = started;
    this.#checking = (async () => {
      const position = await within(
        sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(this.#primary),
        this.#timeoutMs,
      )
        .then(({ rows }) => rows[0]?.lsn ?? null)
        .catch(() => null);
      await Promise.all(this.#replicas.map((replica) => this.#measure(replica, position, started)));
    })().finally(() => {
      this.#checking = undefined;
    });
  }

  async #measure(replica: Replica, position: string | null, started: number): Promise<void> {
    try {
      const { rows } = await within(
        sql<{ recovery: boolean; behind: number | null; since: number | null }>`
          select pg_is_in_recovery() as recovery,
            pg_wal_lsn_diff(coalesce(${position}::pg_lsn, pg_last_wal_receive_lsn()), pg_last_wal_replay_lsn())::float8 as behind,
            (extract(epoch from clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::float8 as since`.execute(
          replica.db,
        ),
        this.#timeoutMs,
      );
      const row = rows[0];
      // A server not in recovery replays nothing: the primary itself (or a copy written to directly).
      let lag = Number.POSITIVE_INFINITY;
      if (row && !row.recovery) lag = 0;
      else if (row && row.behind !== null && row.behind <= 0) lag = 0;
      else if (row && row.since !== null) lag = Math.max(0, Math.round(row.since));
      replica.lagMs = Number.isFinite(lag) ? lag : undefined;
      replica.state = lag <= this.#maxLagMs ? 'ready' : 'lagging';
      replica.visibleUpTo = started - lag;
    } catch {
      replica.state = 'down';
      replica.lagMs = undefined;
    }
    replica.checkedAt = started;
  }
}

/**
 * The read replicas of a store (`sqlStore`'s `replicas`), opened as the primary is, with the
 * same connection options; `undefined` without any. PostgreSQL only: another dialect throws.
 *
 * @example
 * ```ts
 * const replicas = openReplicas(db, postgres, ['postgres://app@replica-1/books'], { poolSize: 10 });
 * ```
 */
export function openReplicas(
  primary: Db,
  dialect: SqlDialectSpec,
  given: readonly string[] | ReplicaOptions | undefined,
  options: ConnectionOptions,
): ReplicaSet | undefined {
  if (!given) return undefined;
  const { urls, ...rest } = Array.isArray(given) ? { urls: given as readonly string[] } : (given as ReplicaOptions);
  if (urls.length === 0) return undefined;
  if (dialect.name !== 'postgres') {
    throw new TypeError(`sqlStore: read replicas are for PostgreSQL only (this store is ${dialect.name})`);
  }
  const opened = urls.map((url) => {
    if (parseDatabaseUrl(url).dialect !== 'postgres') {
      throw new TypeError(`sqlStore: a read replica must be a postgres:// URL, not "${redactUrl(url)}"`);
    }
    return { url, db: openDatabase(url, options).db };
  });
  return new ReplicaSet(primary, opened, rest);
}
