// A tenant's exact count on PostgreSQL two ways, for the choice docs/performance.md ("The tracker at
// 1M issues", seventh round) leaves to the issue's owner: `count(*)` of the tenant's rows that are
// not archived (what the store runs today, an index-only scan of a partial index) against the sum
// of a counts table kept by statement-level triggers (a few rows a tenant, one per writer's shard,
// so that concurrent writers do not queue on one row); and what the triggers add to writes: single
// creates, 100-row creates, archives, alone and by 8 concurrent writers of one tenant. The store
// does not do this; the table and triggers here are the experiment's. Usage:
//   node bench/count-by-trigger.mjs [--rows N] [--pg-url URL]
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    'pg-url': { type: 'string', default: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log('Usage: node bench/count-by-trigger.mjs [--rows N (default 1000000, over 10 tenants)] [--pg-url URL]');
  process.exit(0);
}
const DATABASE = 'resourcery_count_trigger';
const TENANTS = 10;
const SHARDS = 8;

const admin = new pg.Client(args['pg-url']);
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
await admin.query(`CREATE DATABASE ${DATABASE}`);
await admin.end();
const url = new URL(args['pg-url']);
url.pathname = `/${DATABASE}`;
const pool = new pg.Pool({ connectionString: url.toString(), max: 9 });
const q = (text, values) => pool.query(text, values);

// The issues (a body of 200 characters, so that PostgreSQL counts from the index alone, as it does
// the tracker's), their partial index (as the store makes it for a resource that archives) and the counts.
await q(
  `CREATE TABLE issues (id bigserial PRIMARY KEY, "orgId" bigint NOT NULL, "archivedAt" timestamptz, title text, body text)`,
);
await q(`CREATE INDEX issues_live ON issues ("orgId") WHERE "archivedAt" IS NULL`);
await q(`CREATE TABLE issues__counts ("orgId" bigint NOT NULL, shard smallint NOT NULL, live bigint NOT NULL,
  PRIMARY KEY ("orgId", shard))`);
// An update's: the rows as they were (old) count -1, as they are (new) +1, by tenant.
await q(`CREATE FUNCTION issues__count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO issues__counts
  SELECT "orgId", pg_backend_pid() % ${SHARDS}, sum(d) FROM (
    SELECT "orgId", -1 AS d FROM old_rows WHERE "archivedAt" IS NULL
    UNION ALL
    SELECT "orgId", 1 FROM new_rows WHERE "archivedAt" IS NULL) AS changes
  GROUP BY "orgId" HAVING sum(d) <> 0
  ON CONFLICT ("orgId", shard) DO UPDATE SET live = issues__counts.live + excluded.live;
  RETURN NULL;
END $$`);
const triggers = [
  ['INSERT', 'NEW TABLE AS new_rows', 'issues__count_insert'],
  ['DELETE', 'OLD TABLE AS old_rows', 'issues__count_delete'],
  ['UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows', 'issues__count_update'],
];
async function counting(on) {
  for (const [event, referencing, name] of triggers) {
    await q(`DROP TRIGGER IF EXISTS ${name} ON issues`);
    if (!on) continue;
    await q(`CREATE TRIGGER ${name} AFTER ${event} ON issues REFERENCING ${referencing}
      FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`);
  }
  await q('TRUNCATE issues__counts');
  if (on)
    await q('INSERT INTO issues__counts SELECT "orgId", 0, count(*) FROM issues WHERE "archivedAt" IS NULL GROUP BY 1');
}
// An insert's and a delete's: one transition table each.
for (const [event, side] of [
  ['insert', 'new_rows'],
  ['delete', 'old_rows'],
]) {
  await q(`CREATE FUNCTION issues__count_${event}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO issues__counts
  SELECT "orgId", pg_backend_pid() % ${SHARDS}, ${event === 'insert' ? '' : '-'}count(*) FROM ${side}
  WHERE "archivedAt" IS NULL GROUP BY "orgId"
  ON CONFLICT ("orgId", shard) DO UPDATE SET live = issues__counts.live + excluded.live;
  RETURN NULL;
END $$`);
}

const rows = Number(args.rows);
console.log(`loading ${rows.toLocaleString('en')} issues over ${TENANTS} tenants…`);
await q(
  `INSERT INTO issues ("orgId", title, body)
   SELECT 1 + (g % ${TENANTS}), 'issue ' || g, repeat('body ', 40) FROM generate_series(1, $1) g`,
  [rows],
);
// A VACUUM right after the load may leave the pages not all-visible (a snapshot of the load still
// open somewhere): again until they are, so that the count reads the index alone, as it does on a
// table that autovacuum keeps.
for (let tries = 0; tries < 5; tries++) {
  await q('VACUUM ANALYZE issues');
  const [{ pages, visible }] = (
    await q(`SELECT relpages AS pages, relallvisible AS visible FROM pg_class WHERE relname = 'issues'`)
  ).rows;
  if (visible >= pages * 0.99) break;
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

const tenant = (i) => 1 + (i % TENANTS);
async function timed(label, n, once) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await once(i);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (p) => times[Math.min(times.length - 1, Math.floor(times.length * p))].toFixed(3);
  console.log(`${label.padEnd(58)} p50 ${at(0.5).padStart(7)} ms  p99 ${at(0.99).padStart(7)} ms`);
}
/** Creates by `writers` connections at once, one tenant, for `ms`: creates a second. */
async function concurrent(label, writers, ms) {
  let done = 0;
  const end = Date.now() + ms;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (Date.now() < end) {
        await q(`INSERT INTO issues ("orgId", title) VALUES (1, 'concurrent')`);
        done++;
      }
    }),
  );
  console.log(`${label.padEnd(58)} ${Math.round(done / (ms / 1000))} creates/s`);
}
const countRows = (i) => q(`SELECT count(*) FROM issues WHERE "orgId" = $1 AND "archivedAt" IS NULL`, [tenant(i)]);
const sumCounts = (i) => q(`SELECT coalesce(sum(live), 0) FROM issues__counts WHERE "orgId" = $1`, [tenant(i)]);

await timed(
  `count(*) of a tenant's ${(rows / TENANTS).toLocaleString('en')} rows, table just vacuumed`,
  300,
  countRows,
);
for (const round of [1, 2]) {
  for (const on of [false, true]) {
    await counting(on);
    const how = on ? 'with the counting triggers' : 'without triggers';
    await timed(`round ${round}, a create, ${how}`, 2000, (i) =>
      q(`INSERT INTO issues ("orgId", title) VALUES ($1, 'one')`, [tenant(i)]),
    );
    await timed(`round ${round}, 100 creates in one INSERT, ${how}`, 200, (i) =>
      q(`INSERT INTO issues ("orgId", title) SELECT $1, 'many' FROM generate_series(1, 100)`, [tenant(i)]),
    );
    await timed(`round ${round}, an archive, ${how}`, 1000, (i) =>
      q(
        `UPDATE issues SET "archivedAt" = now()
         WHERE id = (SELECT id FROM issues WHERE "orgId" = $1 AND "archivedAt" IS NULL ORDER BY id DESC LIMIT 1)`,
        [tenant(i)],
      ),
    );
    await concurrent(`round ${round}, 8 writers of one tenant, ${how}`, 8, 3000);
  }
}
await timed(`count(*) of a tenant's rows after those writes (no vacuum since)`, 300, countRows);
await q('VACUUM ANALYZE issues');
await timed(`count(*) of a tenant's rows after those writes, vacuumed`, 300, countRows);
await timed('sum of the tenant’s rows of the counts table', 300, sumCounts);
const exact = await q(
  `SELECT "orgId", count(*)::int AS n FROM issues WHERE "archivedAt" IS NULL GROUP BY 1 ORDER BY 1`,
);
const kept = await q(`SELECT "orgId", sum(live)::int AS n FROM issues__counts GROUP BY 1 ORDER BY 1`);
const agree = JSON.stringify(exact.rows) === JSON.stringify(kept.rows);
console.log(`the counts table agrees with count(*) for every tenant: ${agree ? 'yes' : 'NO'}`);
await pool.end();
// The data are made again on each run: the database goes with the run.
const cleanup = new pg.Client(args['pg-url']);
await cleanup.connect();
await cleanup.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
await cleanup.end();
if (!agree) process.exit(1);
