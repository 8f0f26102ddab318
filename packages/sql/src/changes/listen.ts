import type { Client } from 'pg';
import { parseDatabaseUrl } from '../store/open-database.js';
import { storeParameters } from '../store/url-options.js';

/** The longest pause between two attempts to connect again. */
const MAX_BACKOFF_MS = 5000;

/**
 * The URL PostgreSQL's `LISTEN` connects to: `listenUrl` when given, else the store's own URL
 * unless it goes through a transaction pooler (`preparedStatements: false`), where `LISTEN`
 * would land on a server connection that soon serves someone else. None: the log polls.
 *
 * @example
 * ```ts
 * listenLocation('postgres://app@db/books', {}); // 'postgres://app@db/books'
 * listenLocation('postgres://app@pgbouncer/books?preparedStatements=false', {}); // undefined
 * ```
 */
export function listenLocation(
  target: unknown,
  options: { preparedStatements?: boolean; listenUrl?: string },
): string | undefined {
  if (options.listenUrl) return options.listenUrl;
  if (typeof target !== 'string' || options.preparedStatements === false) return undefined;
  const { dialect, location } = parseDatabaseUrl(target);
  if (dialect !== 'postgres') return undefined;
  const own = storeParameters(location);
  return own.options.preparedStatements === false ? undefined : own.location;
}

/**
 * One dedicated PostgreSQL connection (a pg `Client`, outside the store's pool) that `LISTEN`s on
 * the log's channel and calls `wake` at each notification. When it fails or ends it connects
 * again, pausing 100 ms, 200 ms… up to 5 s between attempts, and calls `wake` once listening
 * again (a change may have committed meanwhile). It never keeps the process alive by itself.
 *
 * @example
 * ```ts
 * const listener = new PgListener('postgres://app@db/books', 'resourcery_changes', wake);
 * listener.close();
 * ```
 */
export class PgListener {
  #client: Client | undefined;
  #closed = false;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly wake: () => void,
    /** The payload of the notifications this process sends itself (already woken for): skipped. */
    private readonly own?: string,
  ) {
    void this.#connect();
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const { default: pg } = await import('pg');
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.url });
    this.#client = client;
    const lost = () => {
      if (this.#client !== client) return;
      this.#client = undefined;
      client.end().catch(() => {});
      this.#again();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      if (this.own === undefined || message.payload !== this.own) this.wake();
    });
    try {
      await client.connect();
      // The socket alone must not keep the process alive.
      (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
      await client.query(`LISTEN "${this.channel.replaceAll('"', '""')}"`);
    } catch {
      lost();
      return;
    }
    if (this.#client !== client) {
      client.end().catch(() => {}); // closed meanwhile
      return;
    }
    this.#failures = 0;
    this.wake();
  }

  #again(): void {
    if (this.#closed) return;
    const pause = Math.min(MAX_BACKOFF_MS, 100 * 2 ** this.#failures++);
    this.#timer = setTimeout(() => void this.#connect(), pause);
    this.#timer.unref?.();
  }

  /** Stops listening and closes the connection. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    client?.end().catch(() => {});
  }
}
