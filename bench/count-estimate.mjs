// Counts on huge tables: an index page of a PostgreSQL table of N rows (default 2,000,000) with
// `count=true` (an exact count(*) of every match), `count=estimated` (exact up to 10,000 matches,
// then the planner's estimate) and `count=false` (no count), through the store, in one run; the
// ratios are what docs/deployment.md ("Counts on huge tables") reports. Needs the built packages
// (`npm run build`). `node bench/count-estimate.mjs --help` lists the options.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sqlStore } from '@resourcery/sql';
import { sql } from 'kysely';
import { BENCH_DATABASE, benchPostgresPool, summarize } from './lib/sql-bench.mjs';

const HELP = `Usage: node bench/count-estimate.mjs [options]

  --rows N       events to load (default 2000000)
  --queries N    timed pages per scenario and count, after 3 untimed ones (default 20)
  --pg-url URL   server to use (default $PG_URL or postgres://postgres@127.0.0.1:5432/test); the
                 benchmark uses its own database, ${BENCH_DATABASE}, and keeps its table for reruns
  --reload       drop and reload the table even if it has the right number of rows
  --help         this text`;

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '2000000' },
    queries: { type: 'string', default: '20' },
    'pg-url': { type: 'string', default: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    reload: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const ROWS = Number(args.rows);
const QUERIES = Number(args.queries);

/** Events of 1,000 tenants: a kind (60% view, 35% click, 5% buy) and the tenant, both indexed with the id. */
const schema = {
  name: 'count_events',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'kind', type: 'string', nullable: false, maxLength: 20 },
    { name: 'tenant', type: 'integer', nullable: false },
  ],
  indexed: ['kind', 'tenant'],
};

await (await benchPostgresPool(args['pg-url'])).end(); // creates the benchmark's database when missing
const url = new URL(args['pg-url']);
url.pathname = `/${BENCH_DATABASE}`;
const store = sqlStore(url.href);
const events = store.collection(schema);
const table = sql.table(schema.name);
if (args.reload) await sql`drop table if exists ${table}`.execute(store.db);
await store.init([schema]);
const { rows: counted } = await sql`select count(*)::int as n from ${table}`.execute(store.db);
if (counted[0].n !== ROWS) {
  const started = performance.now();
  await sql`truncate ${table}`.execute(store.db);
  await sql`insert into ${table} (kind, tenant)
    select case when g % 20 < 12 then 'view' when g % 20 < 19 then 'click' else 'buy' end, g % 1000
    from generate_series(1, ${ROWS}::int) as g`.execute(store.db);
  await sql`vacuum analyze ${table}`.execute(store.db);
  console.log(`loaded ${ROWS.toLocaleString('en')} events in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const scenarios = [
  ['every event', []],
  ['kind=view (60%)', [{ field: 'kind', values: ['view'] }]],
  ['kind=buy (5%)', [{ field: 'kind', values: ['buy'] }]],
  ['one tenant (0.1%)', [{ field: 'tenant', values: [7] }]],
  [
    'one tenant, kind=view',
    [
      { field: 'tenant', values: [7] },
      { field: 'kind', values: ['view'] },
    ],
  ],
];
const page = (where, count) =>
  events.list({ where, order: [{ field: 'id', direction: 'desc' }], limit: 26, offset: 0, count });
const time = async (where, count) => {
  for (let i = 0; i < 3; i++) await page(where, count);
  const times = [];
  for (let i = 0; i < QUERIES; i++) {
    const started = performance.now();
    await page(where, count);
    times.push(performance.now() - started);
  }
  return summarize(times).p50;
};

console.log(`\n${ROWS.toLocaleString('en')} events, p50 of ${QUERIES} pages of 25 (ms), newest first\n`);
console.log('| filter | matches | estimate | count=true | count=estimated | count=false | true / estimated |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const [label, where] of scenarios) {
  const exact = (await page(where, true)).total;
  const estimated = await page(where, 'estimated');
  const shown = estimated.estimated ? `~${estimated.total.toLocaleString('en')}` : 'exact';
  const [t, e, f] = [await time(where, true), await time(where, 'estimated'), await time(where, false)];
  const cells = [label, exact.toLocaleString('en'), shown, t.toFixed(2), e.toFixed(2), f.toFixed(2)];
  console.log(`| ${cells.join(' | ')} | ${(t / e).toFixed(1)}× |`);
}
await store.close();
