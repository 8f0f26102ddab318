import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type SqlStoreProvider, sqlStore } from '@resourcery/sql';
import { type Kysely, sql } from 'kysely';
import { SERVERS } from './databases.js';

// biome-ignore lint/suspicious/noExplicitAny: any tables
type Db = Kysely<any>;

const SCRIPT = fileURLToPath(new URL('../../../../.ci/replica.sh', import.meta.url));

/** Runs `.ci/replica.sh start` (waits until it streams again) or `stop` (a fast shutdown: its connections are terminated). */
export async function replicaCluster(action: 'start' | 'stop'): Promise<void> {
  await promisify(execFile)(SCRIPT, [action], { timeout: 120_000 });
}

/** Connections of their own to the primary and to the replica, for the tests' direct queries. */
export function directConnections(): { primary: SqlStoreProvider; replica: SqlStoreProvider } {
  return { primary: sqlStore(SERVERS.postgres.url), replica: sqlStore(SERVERS.replica.url) };
}

async function until(what: string, done: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await done().catch(() => false))) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the replica has replayed everything the primary had written when this was called. */
export async function caughtUp(primary: Db, replica: Db): Promise<void> {
  const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(primary);
  const lsn = rows[0]?.lsn;
  await until('the replica replays the primary', async () => {
    const answer = await sql<{ done: boolean }>`select pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn as done`.execute(
      replica,
    );
    return answer.rows[0]?.done === true;
  });
}

/** Waits until the store counts its replicas ready (`read`, a read through the store, starts its checks). */
export async function replicaReady(store: SqlStoreProvider, read: () => Promise<unknown>): Promise<void> {
  await until('the store finds its replica ready', async () => {
    await read();
    return store.replicaStatus().every((replica) => replica.state === 'ready');
  });
}

/** Runs `work` while the replica does not replay the primary's WAL (its data stays as it was), then lets it replay again. */
export async function replayPaused<T>(replica: Db, work: () => Promise<T>): Promise<T> {
  await sql`select pg_wal_replay_pause()`.execute(replica);
  try {
    await until('the replay pauses', async () => {
      const { rows } = await sql<{ state: string }>`select pg_get_wal_replay_pause_state() as state`.execute(replica);
      return rows[0]?.state === 'paused';
    });
    return await work();
  } finally {
    await sql`select pg_wal_replay_resume()`.execute(replica);
  }
}
