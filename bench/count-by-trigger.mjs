// A tenant's exact count on PostgreSQL two ways: `count(*)` of the tenant's rows that are not
// archived (an index-only scan of a partial index, what the store runs without `keepCount`)
// against the sum of its kept count (`keepCount: true`: the counts table and triggers the store
// makes, query/kept-count.ts, a few rows a tenant, one per writer's shard); and what the triggers
// add to writes: single creates, 100-row creates, archives, updates of another column, alone and
// by 8 concurrent writers of one tenant. The table and its kept count are made by the store's own
// DDL (`createTableSql` of a schema with `keepCount`), so that what is measured is what ships
// (docs/performance.md, "The tracker at 1M issues", seventh and eighth rounds). Usage:
//   npm run build && node bench/count-by-trigger.mjs [--rows N] [--pg-url URL]
import { parseArgs } from 'node:util';
import { createTableSql } from '@resourcery/sql';
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

const admin = new pg.Client(args['pg-url']);
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
await admin.query(`CREATE DATABASE ${DATABASE}`);
await admin.end();
const url = new URL(args['pg-url']);
url.pathname = `/${DATABASE}`;
const pool = new pg.Pool({ connectionString: url.toString(), max: 9 });
const q = (text, values) => pool.query(text, values);

// The issues as a resource under tenancy that archives gives them to its store (a body of 200
// characters, so that PostgreSQL counts from the index alone, as it does the tracker's): the
// store's table, its indexes (the partial one of the tenant's records that are not archived
// among them) and, with `keepCount`, the last statement: the DO block of the kept count.
const text = (name) => ({ name, type: 'string', nullable: true });
const schema = {
  name: 'issues',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'orgId', type: 'integer', nullable: false },
    { name: 'archivedAt', type: 'date-time', nullable: true },
    text('title'),
    text('body'),
  ],
  indexed: ['orgId'],
  indexes: [['orgId', 'id', 'archivedAt'].map((field) => ({ field, direction: 'asc' }))],
  tenant: 'orgId',
  archive: 'archivedAt',
  keepCount: true,
};
const statements = createTableSql(schema, 'postgres');
for (const statement of statements.slice(0, -1)) await q(statement);
const keptCount = statements.at(-1);
if (!keptCount.startsWith('DO $resourcery$')) throw new Error('createTableSql made no kept count');
async function counting(on) {
  await q('DROP TABLE IF EXISTS issues__counts');
  for (const name of ['insert', 'delete', 'update', 'truncate'])
    await q(`DROP FUNCTION IF EXISTS issues__count_${name}() CASCADE`);
  if (on) await q(keptCount);
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
    const made = performance.now();
    await counting(on);
    if (on)
      console.log(`round ${round}, the kept count made and filled in ${(performance.now() - made).toFixed(0)} ms`);
    const how = on ? 'with the kept count' : 'without it';
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
    await timed(`round ${round}, an update of the title, ${how}`, 1000, (i) =>
      q(
        `UPDATE issues SET title = 'renamed'
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
