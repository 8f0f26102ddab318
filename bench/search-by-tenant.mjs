// A search of the tracker at 1M issues (issue #27) on PostgreSQL, two ways on the same table: the
// GIN index of each words column (`title__words`, every organization's words), and the generated
// columns of the words by tenant that the store reads under tenancy (`title__tenant_words`,
// `'3:crash'`; docs/search.md). docs/performance.md "Fifth round" shows a run. Each search is the
// store's page and exact count of two words + `status = 'open'` in one organization, sent in turn
// both ways (alternating which goes first), and both must answer the same. Needs the data of
// `node bench/tracker-scale.mjs --only postgres`; makes the words columns' own GIN indexes for
// the comparison (about 10 s at 1M issues) and drops them at the end. Usage:
//   node bench/search-by-tenant.mjs [--rare N] [--frequent N] [--pg-url URL]
import { parseArgs } from 'node:util';
import { benchPostgresPool, summarize } from './lib/sql-bench.mjs';

const { values: args } = parseArgs({
  options: {
    rare: { type: 'string', default: '300' },
    frequent: { type: 'string', default: '30' },
    'pg-url': { type: 'string', default: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
  },
});

const pool = await benchPostgresPool(args['pg-url'], { max: 1 });
const TABLE = 'tracker_issues';
const PLAIN = ['title', 'body'].map((field) => ({ field, index: `${TABLE}_${field}__words_compare_idx` }));

/** The page (25 newest) and the exact count of two words in one organization, as the store asks them. */
function statement(byTenant) {
  const word = (field, n) =>
    byTenant ? `"${field}__tenant_words" @@ $${n}::tsquery` : `"${field}__words" @@ $${n}::tsquery`;
  const either = (n) => `(${word('title', n)} or ${word('body', n)})`;
  return `with m as materialized (select id from ${TABLE} where status = 'open' and ${either(1)} and ${either(2)}
    and "orgId" = $3 and "archivedAt" is null)
    select (select count(*) from m) as n, array(select id from m order by id desc limit 25) as ids`;
}
const PLAIN_SQL = statement(false);
const TENANT_SQL = statement(true);
const prefix = (word) => `'${word}':*`;

const count = await pool.query(`select count(*)::int as n from ${TABLE}`).catch(() => ({ rows: [{ n: 0 }] }));
if (count.rows[0].n === 0) throw new Error(`no ${TABLE}: run node bench/tracker-scale.mjs --only postgres first`);
console.log(`making the words columns' own GIN indexes for the comparison (${count.rows[0].n} issues)`);
for (const { field, index } of PLAIN) {
  await pool.query(`create index if not exists "${index}" on ${TABLE} using gin ("${field}__words")`);
}
await pool.query(`analyze ${TABLE}`);

const frequent = (
  await pool.query(
    `select word from ts_stat('select body__words from ${TABLE} where id < 30000') order by ndoc desc limit 10`,
  )
).rows.map((row) => row.word);

/** Two words of the title of a random issue of `org` (not among the 10 most frequent), cut by up to two letters. */
async function rare(org) {
  for (;;) {
    const { rows } = await pool.query(`select title from ${TABLE} where "orgId" = $1 and id > $2 order by id limit 1`, [
      org,
      Math.floor(Math.random() * (count.rows[0].n - 1000)),
    ]);
    const words = (rows[0]?.title ?? '').split(' ').filter((w) => w.length >= 3 && !frequent.includes(w));
    if (words.length < 2) continue;
    const cut = (w) => w.slice(0, Math.max(3, w.length - Math.floor(Math.random() * 3)));
    return [cut(words[0]), cut(words[1])];
  }
}
const common = async () => [frequent[Math.floor(Math.random() * 5)], frequent[5 + Math.floor(Math.random() * 5)]];

/** Runs `sql`, keeps its duration in `times`, and answers its row as JSON (to compare the two ways). */
async function timed(times, sql, params) {
  const started = performance.now();
  const { rows } = await pool.query(sql, params);
  times.push(performance.now() - started);
  return JSON.stringify(rows[0]);
}

try {
  console.log('\n| search | words column index, p50 / p99 ms | words by tenant, p50 / p99 ms | ratio (p50, p99) |');
  console.log('|---|---|---|---|');
  for (const [label, n, pick] of [
    ['two words of an issue', Number(args.rare), rare],
    ['two of the most frequent words', Number(args.frequent), common],
  ]) {
    const plain = [];
    const tenant = [];
    for (let i = 0; i < n; i++) {
      const org = 1 + Math.floor(Math.random() * 10);
      const [a, b] = await pick(org);
      const runs = [
        () => timed(plain, PLAIN_SQL, [prefix(a), prefix(b), org]),
        () => timed(tenant, TENANT_SQL, [prefix(`${org}:${a}`), prefix(`${org}:${b}`), org]),
      ];
      if (i % 2 === 1) runs.reverse();
      const [first, second] = [await runs[0](), await runs[1]()];
      if (first !== second) throw new Error(`"${a} ${b}" in organization ${org}: the two ways answer differently`);
    }
    const [p, t] = [summarize(plain), summarize(tenant)];
    console.log(
      `| ${label} | ${p.p50.toFixed(1)} / ${p.p99.toFixed(1)} | ${t.p50.toFixed(1)} / ${t.p99.toFixed(1)} | ${(p.p50 / t.p50).toFixed(1)}×, ${(p.p99 / t.p99).toFixed(1)}× |`,
    );
  }
} finally {
  for (const { index } of PLAIN) await pool.query(`drop index if exists "${index}"`);
  await pool.end();
}
