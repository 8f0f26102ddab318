// Node's young-generation collections and the slowest requests (docs/deployment.md, "Node's young
// generation and the slowest requests"): a loop of pg queries written by hand, without the
// library (a page of 25 of the tracker's issues by a named statement, then its JSON), run in child
// processes: with pg's promise and with its callback, each with Node's default young generation
// and with --max-semi-space-size=4; each prints its p50/p99 and its young-generation collections
// (how many, their mean and longest pause, from perf_hooks' `gc` entries). On the data of
// tracker-scale.mjs (run it first).
// Usage: node bench/young-generation.mjs [--queries N] [--pg-url URL]
import { execFileSync } from 'node:child_process';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { BENCH_DATABASE } from './lib/sql-bench.mjs';

const { values: args } = parseArgs({
  options: {
    queries: { type: 'string', default: '3000' },
    'pg-url': { type: 'string', default: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    child: { type: 'boolean', default: false },
    callback: { type: 'boolean', default: false },
  },
});

if (!args.child) {
  console.log('| pg | node flags | p50 ms | p99 ms | young-generation collections | mean pause ms | longest ms |');
  console.log('|---|---|---|---|---|---|---|');
  for (const style of ['promise', 'callback'])
    for (const extra of [[], ['--max-semi-space-size=4']]) {
      const child = [fileURLToPath(import.meta.url), '--child', '--queries', args.queries, '--pg-url', args['pg-url']];
      if (style === 'callback') child.push('--callback');
      const out = execFileSync(process.execPath, [...extra, ...child], { encoding: 'utf8' });
      console.log(`| ${style} | ${extra.join(' ') || '(default)'} ${out.trim()}`);
    }
  process.exit(0);
}

const url = new URL(args['pg-url']);
url.pathname = `/${BENCH_DATABASE}`;
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
const pauses = [];
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (entry.detail?.kind === 1) pauses.push(entry.duration); // minor: the young generation
});
observer.observe({ entryTypes: ['gc'] });
const text = `select "id", "orgId", "projectId", "title", "body", "status", "priority", "assigneeId", "dueDate", "estimate",
  "archivedAt", "createdAt", "updatedAt" from tracker_issues where "orgId" = $1 and "archivedAt" is null
  order by id desc limit 25 offset $2`;
const times = [];
for (let i = 0; i < Number(args.queries); i++) {
  const started = performance.now();
  const config = { name: 'page', text, values: [1 + (i % 10), (i * 7) % 500] };
  const { rows } = args.callback
    ? await new Promise((resolve, reject) =>
        client.query(config, (error, result) => (error ? reject(error) : resolve(result))),
      )
    : await client.query(config);
  if (JSON.stringify({ issues: rows }).length < 20) throw new Error('no issues: run tracker-scale.mjs first');
  times.push(performance.now() - started);
}
await client.end();
observer.disconnect();
times.sort((a, b) => a - b);
const at = (q) => times[Math.min(times.length - 1, Math.floor(times.length * q))].toFixed(2);
const mean = pauses.reduce((sum, ms) => sum + ms, 0) / Math.max(pauses.length, 1);
console.log(
  `| ${at(0.5)} | ${at(0.99)} | ${pauses.length} | ${mean.toFixed(1)} | ${Math.max(0, ...pauses).toFixed(1)} |`,
);
