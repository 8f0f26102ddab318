/**
 * Read replicas of a PostgreSQL store (`sqlStore(primaryUrl, { replicas })`): streaming replicas
 * (hot standbys) of the primary, which the reads made outside a transaction go to.
 *
 * @example
 * ```ts
 * const store = sqlStore(process.env.DATABASE_URL, {
 *   replicas: { urls: ['postgres://app@replica-1/books', 'postgres://app@replica-2/books'], maxLagMs: 500 },
 * });
 * ```
 */
export interface ReplicaOptions {
  /** The replicas' URLs (`postgres://…`), opened with the store's connection options; reads are spread over them in turn. */
  readonly urls: readonly string[];
  /**
   * How far behind the primary a replica may be, as last measured, and still serve reads; one
   * further behind is skipped (its reads go to the primary) until it catches up. Default 1000.
   */
  readonly maxLagMs?: number;
  /**
   * How often, at most, the replicas' lag and health are measured (in the background, while the
   * store serves reads; never per query). Default 1000; a check taking longer than this (at
   * least 1000 ms) counts the replica as down.
   */
  readonly checkIntervalMs?: number;
  /**
   * Whose writes a read is sure to see. `'request'`: a write action's own reads go to the
   * primary (the core asks `collection.primary()`), and other reads to a replica within the lag
   * bound. `'process'` (default): also, after this store wrote (a write outside a transaction,
   * a transaction, `init`), its reads go to the primary until a replica is measured to have
   * replayed that write (the next check, within about `checkIntervalMs`).
   */
  readonly readYourWrites?: 'request' | 'process';
}

/**
 * What the store knows of one replica (`store.replicaStatus()`): for health pages and metrics.
 *
 * @example
 * ```ts
 * store.replicaStatus(); // [{ url: 'postgres://app:***@replica-1/books', state: 'ready', lagMs: 0, reads: 1520, fallbacks: 0, … }]
 * ```
 */
export interface ReplicaStatus {
  /** The replica's URL, its password masked. */
  readonly url: string;
  /** `unknown` before its first check; `ready` serves reads; `lagging` and `down` are skipped. */
  readonly state: 'unknown' | 'ready' | 'lagging' | 'down';
  /** How far behind the primary it was at its last check (ms), `undefined` when it did not answer. */
  readonly lagMs: number | undefined;
  /** When its last check began (epoch ms). */
  readonly checkedAt: number | undefined;
  /** Reads it served. */
  readonly reads: number;
  /** Reads that failed on it and were run on the primary instead. */
  readonly fallbacks: number;
}
