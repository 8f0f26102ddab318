// The databases of `node bench/run.mjs --db postgres|sqlite`: every SQL contender gets one of its
// own, fresh, with the same table, the same two indexes and the same seeded books, whatever it
// then serves them with. Also the CPU time of the PostgreSQL server processes, which do half the
// work of a request and would otherwise go unseen.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The `--db` values: `memory` is the memory-store contenders of old. */
export const DATABASES = ['memory', 'postgres', 'sqlite'];

/** The server every PostgreSQL contender's database is made on (any database of it). */
export const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Connections each contender's pool opens on PostgreSQL (the library's default is the same). */
export const POOL_SIZE = 10;

/** The PostgreSQL database of a contender: `bench_<name>`, dashes as underscores. */
export const databaseName = (contender) => `bench_${contender.replace(/[^a-z0-9]/gi, '_').toLowerCase()}`;

/** The table of every contender but the library (which creates its own, with the same indexes). */
const TABLE = {
  postgres: 'CREATE TABLE IF NOT EXISTS books (id SERIAL PRIMARY KEY, name TEXT NOT NULL, author TEXT NOT NULL)',
  sqlite:
    'CREATE TABLE IF NOT EXISTS books (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, author TEXT NOT NULL)',
};

/** The indexes everyone gets, under the names the library gives its own (so these are no-ops for it). */
const INDEXES = [
  'CREATE INDEX IF NOT EXISTS books_name_idx ON books (name, id)',
  'CREATE INDEX IF NOT EXISTS books_author_idx ON books (author, id)',
];

/** Rows per INSERT statement (PostgreSQL takes at most 65,535 parameters in one). */
const BATCH = 5000;

/**
 * SQLite's \`synchronous\` for every contender: FULL (each commit flushed, the library's default),
 * or NORMAL with \`--sqlite-synchronous normal\` (run.mjs passes it on in the environment).
 */
export const SQLITE_SYNCHRONOUS = process.env.BENCH_SQLITE_SYNCHRONOUS === 'normal' ? 'NORMAL' : 'FULL';

/**
 * A new empty database for `contender`: on PostgreSQL `bench_<contender>` dropped (with its
 * connections) and created again, in the "C" collation (code point order, as the contract says,
 * for every column of every contender); on SQLite a file in a new temporary folder. Answers
 * `{ kind, url, location, remove() }`: `url` as the library takes it, `location` as the drivers do
 * (a connection string, a file path); `remove()` deletes the SQLite folder.
 */
export async function freshDatabase(contender, kind) {
  if (kind === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), 'resourcery-bench-'));
    const location = join(folder, `${contender}.sqlite`);
    return {
      kind,
      url: `sqlite:${location}`,
      location,
      remove: () => rmSync(folder, { recursive: true, force: true }),
    };
  }
  if (kind !== 'postgres') throw new Error(`No database of kind "${kind}" (known: ${DATABASES.join(', ')})`);
  const { default: pg } = await import('pg');
  const name = databaseName(contender);
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return { kind, url: url.href, location: url.href, remove: () => {} };
}

/**
 * Creates the books table when missing (the library's is there already), the two indexes
 * `(name, id)` and `(author, id)`, inserts `books` in order (book `i` gets id `i + 1`) in
 * batches of one multi-row INSERT, then runs `ANALYZE` (PostgreSQL: `VACUUM ANALYZE`, the state
 * autovacuum would leave, which this server's settings may not run). Sets SQLite's WAL journal,
 * which stays with the file. Checks that the ids came out 1..N.
 */
export async function seedBooks(database, books) {
  const rows = books.map(({ name, author }) => [name, author]);
  if (database.kind === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(database.location);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${SQLITE_SYNCHRONOUS}`);
      db.exec(TABLE.sqlite);
      for (const statement of INDEXES) db.exec(statement);
      db.transaction(() => {
        for (let from = 0; from < rows.length; from += BATCH) {
          const batch = rows.slice(from, from + BATCH);
          db.prepare(`INSERT INTO books (name, author) VALUES ${batch.map(() => '(?, ?)').join(', ')}`).run(
            batch.flat(),
          );
        }
      })();
      db.exec('ANALYZE');
      checkIds(db.prepare('SELECT count(*) AS count, min(id) AS low, max(id) AS high FROM books').get(), books.length);
    } finally {
      db.close();
    }
    return;
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: database.location });
  await client.connect();
  try {
    await client.query(TABLE.postgres);
    for (const statement of INDEXES) await client.query(statement);
    for (let from = 0; from < rows.length; from += BATCH) {
      const batch = rows.slice(from, from + BATCH);
      const values = batch.map((_, i) => `($${2 * i + 1}, $${2 * i + 2})`).join(', ');
      await client.query(`INSERT INTO books (name, author) VALUES ${values}`, batch.flat());
    }
    await client.query('VACUUM ANALYZE books');
    const { rows: found } = await client.query(
      'SELECT count(*)::int AS count, min(id)::int AS low, max(id)::int AS high FROM books',
    );
    checkIds(found[0], books.length);
  } finally {
    await client.end();
  }
}

/** {@link freshDatabase} with the books seeded ({@link seedBooks}): what a contender serves. */
export async function seededDatabase(contender, kind, books) {
  const database = await freshDatabase(contender, kind);
  await seedBooks(database, books);
  return database;
}

function checkIds({ count, low, high }, expected) {
  if (count !== expected || (expected > 0 && (low !== 1 || high !== expected))) {
    throw new Error(`seeding: expected ids 1..${expected}, got ${count} rows with ids ${low}..${high}`);
  }
}

/** Backend title: `postgres: 15/main: user database 127.0.0.1(40722) idle` (or `[local]`). */
const BACKEND = /^postgres: (?:\S+: )?\S+ (\S+) (?:\S+\(\d+\)|\[local\])/;

/**
 * The CPU time (µs) the PostgreSQL server processes on this machine used so far, per process:
 * every process whose name is `postgres` except the backends serving another database than
 * `database` (other contenders' idle pools, anyone else's sessions), so that the background
 * processes (WAL writer, checkpointer...) count for all and the backends for their own database.
 * Read from `/proc/<pid>/schedstat` (time on a CPU, in ns; `stat`'s utime + stime, in clock
 * ticks, where it is missing). Empty where there is no /proc. `backendsOnly`: the backends of
 * `database` alone, without the background processes that every database's writes keep busy.
 */
export function postgresCpu(database, { backendsOnly = false } = {}) {
  const times = new Map();
  let pids;
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return times;
  }
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'latin1').trim() !== 'postgres') continue;
      const title = readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0+$/, '').replace(/\0/g, ' ');
      const served = BACKEND.exec(title)?.[1];
      if (served !== undefined && served !== database) continue;
      if (backendsOnly && served === undefined) continue;
      times.set(pid, cpuMicroseconds(pid));
    } catch {
      // The process ended meanwhile.
    }
  }
  return times;
}

function cpuMicroseconds(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'latin1').split(' ')[0]) / 1000;
  } catch {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000; // utime + stime at 100 ticks per second
  }
}

/**
 * The CPU time (µs) PostgreSQL spent between two {@link postgresCpu} readings: each process's
 * growth, a process started in between counting whole (a pool reconnecting pays for it); one
 * that ended in between is left out (an idle connection that a pool closed, not one at work).
 */
export function cpuBetween(before, after) {
  let total = 0;
  for (const [pid, time] of after) total += time - (before.get(pid) ?? 0);
  return total;
}
