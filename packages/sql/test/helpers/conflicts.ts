// What the retry tests use to make transactions meet: another connection to the database (the
// other side of a conflict), a barrier for two transactions of the store, and a wait until a
// statement on given tables waits for a lock.
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { SERVERS, type ServerName } from './databases.js';

/** A connection of its own, outside every store: the other side of a conflict. */
export interface Competitor {
  /** Runs one statement; answers its rows. */
  run(statement: string): Promise<unknown[]>;
  close(): Promise<void>;
}

/**
 * Opens a {@link Competitor}. On PostgreSQL it finds deadlocks only after 10 s (the store's
 * connections after the default 1 s), so that in a deadlock with the store, the store's
 * transaction is the one aborted. (MariaDB aborts the transaction that changed fewer rows: a test
 * makes its competitor change more.)
 */
export async function competitor(name: ServerName): Promise<Competitor> {
  const { url } = SERVERS[name];
  if (name === 'postgres') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    client.on('error', () => {});
    await client.query(`SET deadlock_timeout = '10s'`);
    return { run: async (statement) => (await client.query(statement)).rows, close: () => client.end() };
  }
  const connection = await createConnection(url);
  connection.on('error', () => {});
  return {
    run: async (statement) => (await connection.query(statement))[0] as unknown[],
    close: () => connection.end(),
  };
}

/** Quotes an identifier for the server. */
export const quote = (name: ServerName, identifier: string) =>
  name === 'postgres' ? `"${identifier}"` : `\`${identifier}\``;

/**
 * A meeting point for `count` runs: each call waits until `count` calls were made. Meant for the
 * first attempt of each transaction only (a retry runs alone).
 */
export function barrier(count: number): () => Promise<void> {
  let arrived = 0;
  let open: () => void = () => {};
  const all = new Promise<void>((resolve) => {
    open = resolve;
  });
  return () => {
    arrived += 1;
    if (arrived >= count) open();
    return all;
  };
}

/**
 * Waits until a statement naming `fragment` (a table prefix) waits for a lock on the server, as
 * seen from `watcher` (another connection): the other side may then close the cycle.
 */
export async function blockedOn(name: ServerName, watcher: Competitor, fragment: string): Promise<void> {
  const query =
    name === 'postgres'
      ? `select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%${fragment}%'`
      : `select count(*) as n from information_schema.innodb_trx where trx_state = 'LOCK WAIT' and trx_query like '%${fragment}%'`;
  // MariaDB refreshes its view of transactions only when it was last read over 0.1 s ago.
  const pauseMs = name === 'postgres' ? 10 : 150;
  for (let waited = 0; waited < 10_000; waited += pauseMs) {
    const [row] = (await watcher.run(query)) as { n: number | string }[];
    if (Number(row?.n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  throw new Error(`no statement on ${fragment} came to wait for a lock`);
}
