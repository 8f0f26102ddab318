// What the SQL benchmarks (sql-index.mjs, sql-query.mjs) share: the benchmark's PostgreSQL
// database, a Kysely instance that shows the statements a store sent, their plans, loading in
// batches, and percentiles.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { CompiledQuery, Kysely } from 'kysely';
import pg from 'pg';

/**
 * The database every SQL benchmark uses on the server of `pgUrl`; created when missing, kept.
 * `RESOURCERY_BENCH_DATABASE` names another (one of yours, on a server others use).
 */
export const BENCH_DATABASE = process.env.RESOURCERY_BENCH_DATABASE ?? 'resourcery_bench';

/**
 * A pool on the benchmark's own database of the server of `pgUrl` (any database of it). `max: 1`
 * with `idleTimeoutMillis: 0` keeps every statement on one server process, whose CPU time
 * {@link cpuClock} can then read.
 */
export async function benchPostgresPool(pgUrl, { max = 4, idleTimeoutMillis = 10_000 } = {}) {
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [BENCH_DATABASE]);
  if (exists.rowCount === 0) await admin.query(`create database ${BENCH_DATABASE}`);
  await admin.end();
  const url = new URL(pgUrl);
  url.pathname = `/${BENCH_DATABASE}`;
  return new pg.Pool({ connectionString: url.href, max, idleTimeoutMillis });
}

/**
 * A clock of CPU time in ms: this process's (`process.cpuUsage()`, every thread) plus the time on
 * a CPU of the PostgreSQL server processes `pids` when they run on this machine (their
 * `/proc/<pid>/schedstat`; others are left out). Unlike the wall clock, it does not count the
 * time a query waited for a CPU that other jobs held, nor the round trips.
 */
export function cpuClock(pids = []) {
  const files = pids
    .map((pid) => `/proc/${pid}`)
    .filter((dir) => {
      try {
        return readFileSync(`${dir}/cmdline`, 'latin1').startsWith('postgres');
      } catch {
        return false;
      }
    })
    .map((dir) => `${dir}/schedstat`);
  // A server process that has ended (a pool closed its idle connection) counts what it had used.
  const last = new Map();
  const clock = () => {
    const { user, system } = process.cpuUsage();
    let ms = (user + system) / 1000;
    for (const file of files) {
      try {
        last.set(file, Number(readFileSync(file, 'latin1').split(' ')[0]) / 1e6);
      } catch {}
      ms += last.get(file) ?? 0;
    }
    return ms;
  };
  clock.servers = files.length;
  return clock;
}

/**
 * A Kysely instance whose `capture(work)` answers the statements run while `work` ran (in the
 * order they ran), to show what a store sent and explain it.
 *
 * @example
 * ```js
 * const { db, capture } = recordingKysely(new SqliteDialect({ database }));
 * const { queries } = await capture(() => books.list(query)); // [{ sql, parameters }, ...]
 * ```
 */
export function recordingKysely(dialect) {
  let recorded;
  const db = new Kysely({
    dialect,
    log: (event) => {
      if (recorded && event.level === 'query') recorded.push(event.query);
    },
  });
  const capture = async (work) => {
    recorded = [];
    try {
      const result = await work();
      return { result, queries: recorded };
    } finally {
      recorded = undefined;
    }
  };
  return { db, capture };
}

/** The plan of a statement on PostgreSQL, run: `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)`. */
export async function explainPostgres(db, query) {
  const explained = CompiledQuery.raw(`explain (analyze, buffers, costs off) ${query.sql}`, [...query.parameters]);
  return (await db.executeQuery(explained)).rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** The plan of a statement on SQLite: `EXPLAIN QUERY PLAN`, indented as its tree. */
export async function explainSqlite(db, query) {
  const explained = CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]);
  const { rows } = await db.executeQuery(explained);
  const depth = new Map([[0, -1]]);
  return rows
    .map((row) => {
      const level = (depth.get(row.parent) ?? 0) + 1;
      depth.set(row.id, level);
      return `${'  '.repeat(level)}${row.detail}`;
    })
    .join('\n');
}

/** Calls `insertRange(from, to)` for every batch of `total` rows, showing the progress. */
export async function loadInBatches(label, total, batch, insertRange) {
  const started = performance.now();
  for (let from = 0; from < total; from += batch) {
    await insertRange(from, Math.min(total, from + batch));
    process.stdout.write(`\r${label}: loading ${Math.min(total, from + batch).toLocaleString('en')}`);
  }
  console.log(` in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** The `p`th percentile of sorted numbers (nearest rank). */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** p50, p95 and p99 of durations (any order), and how many there were. */
export function summarize(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
}
