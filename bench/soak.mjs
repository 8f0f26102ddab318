// The soak test: `npm run soak` (or `node bench/soak.mjs --help`). Runs the example's server
// (examples/books/src/server.ts, bundled from the sources with esbuild) in a child process and
// sends it mixed reads and writes for minutes, then reports the errors (must be 0) and the
// server's memory over time (must stay flat). Exits 1 on any error or on memory growth.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bundleExampleServer } from '../scripts/bundle-example-server.mjs';

const HELP = `Usage: node bench/soak.mjs [options]   (npm run soak -- [options])

  --minutes N       how long to load the server (default 3)
  --quick           a 20-second smoke run (overrides --minutes)
  --db URL          the server's DATABASE_URL (default: a new SQLite file in a temporary folder);
                    e.g. postgres://postgres@127.0.0.1:5432/soak (the database must exist)
  --connections N   concurrent clients (default 16)
  --growth P        allowed memory growth in percent, last third over first third after the
                    warm-up (default 20)
  --help            this text`;

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '3' },
    quick: { type: 'boolean', default: false },
    db: { type: 'string' },
    connections: { type: 'string', default: '16' },
    growth: { type: 'string', default: '20' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}

const durationMs = args.quick ? 20_000 : Number(args.minutes) * 60_000;
const connections = Number(args.connections);
const allowedGrowth = Number(args.growth) / 100;
const WARMUP = 0.2; // the first fifth of the run is not judged: caches, JIT, pools fill up
const SAMPLE_MS = 1000;
const REPORT_MS = durationMs >= 60_000 ? 15_000 : 5_000;

function startServer(bundle, databaseUrl) {
  const child = spawn(process.execPath, [bundle], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', REPORT_MEMORY: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = { child, heapUsed: 0, log: '' };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${server.log}`)), 15_000);
    let buffer = '';
    const read = (chunk) => {
      server.log = (server.log + chunk).slice(-5000);
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const memory = /^memory rss=(\d+) heapUsed=(\d+)/.exec(line);
        if (memory) server.heapUsed = Number(memory[2]);
        const listening = /http:\/\/localhost:(\d+)\/api/.exec(line);
        if (listening && !server.baseUrl) {
          server.baseUrl = `http://127.0.0.1:${listening[1]}/api`;
          clearTimeout(timer);
          resolve(server);
        }
      }
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${server.log}`));
    });
  });
}

/** The child's resident set size in bytes, from /proc (Linux), or undefined elsewhere. */
function rssOf(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

const stats = { requests: 0, errors: 0, byKind: {}, firstErrors: [] };

async function call(baseUrl, kind, method, path, body, expected = [200]) {
  stats.requests++;
  stats.byKind[kind] = (stats.byKind[kind] ?? 0) + 1;
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!expected.includes(response.status)) {
      stats.errors++;
      if (stats.firstErrors.length < 5)
        stats.firstErrors.push(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
      return undefined;
    }
    return text ? JSON.parse(text) : {};
  } catch (error) {
    stats.errors++;
    if (stats.firstErrors.length < 5)
      stats.firstErrors.push(`${method} ${path}: ${error.cause?.code ?? error.message}`);
    return undefined;
  }
}

/** One client: mixed reads and writes on books of its own, the table size staying about level. */
async function client(baseUrl, index, until) {
  const mine = [];
  let n = 0;
  while (Date.now() < until) {
    n++;
    const roll = Math.random();
    const id = mine[Math.floor(Math.random() * mine.length)];
    if (roll < 0.3) {
      await call(baseUrl, 'index', 'GET', `/books?page=${1 + (n % 5)}&per_page=20`);
    } else if (roll < 0.45) {
      await call(baseUrl, 'index-filter', 'GET', `/books?filter[author]=client%20${index}&sort=-name&per_page=10`);
    } else if (roll < 0.65 && id !== undefined) {
      await call(baseUrl, 'show', 'GET', `/books/${id}`);
    } else if (roll < 0.75 || mine.length < 5) {
      const reply = await call(baseUrl, 'create', 'POST', '/books', {
        name: `b${index}-${n}`,
        author: `client ${index}`,
      });
      if (reply?.book) mine.push(reply.book.id);
    } else if (roll < 0.85 && id !== undefined) {
      await call(baseUrl, 'update', 'PATCH', `/books/${id}`, { name: `b${index}-${n} renamed` });
    } else if (roll < 0.9) {
      await call(baseUrl, 'invalid', 'POST', '/books', { name: '' }, [422]); // errors are answered too
    } else if (id !== undefined) {
      mine.splice(mine.indexOf(id), 1);
      await call(baseUrl, 'delete', 'DELETE', `/books/${id}`, undefined, [200, 204]);
    }
  }
}

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const mean = (list) => list.reduce((sum, value) => sum + value, 0) / Math.max(1, list.length);

const folder = mkdtempSync(join(tmpdir(), 'resourcery-soak-'));
const databaseUrl = args.db ?? `sqlite:${join(folder, 'books.sqlite')}`;
const bundle = await bundleExampleServer('resourcery-soak');
const server = await startServer(bundle, databaseUrl);
console.log(
  `soak: ${durationMs / 1000} s, ${connections} clients, example server (pid ${server.child.pid}) on ${databaseUrl.replace(/\/\/[^@/]*@/, '//***@')}`,
);
console.log('   time  requests     req/s  errors   RSS MB  heap MB');

const started = Date.now();
const until = started + durationMs;
const samples = [];
const sampler = setInterval(() => {
  const rss = rssOf(server.child.pid);
  if (rss !== undefined) samples.push({ t: Date.now() - started, rss, heapUsed: server.heapUsed });
}, SAMPLE_MS);
let lastRequests = 0;
let lastReport = started;
const reporter = setInterval(() => {
  const now = Date.now();
  const last = samples.at(-1) ?? { rss: 0, heapUsed: 0 };
  const rate = ((stats.requests - lastRequests) * 1000) / (now - lastReport);
  lastRequests = stats.requests;
  lastReport = now;
  console.log(
    `${String(Math.round((now - started) / 1000)).padStart(6)}s ${String(stats.requests).padStart(9)} ${rate.toFixed(0).padStart(9)} ${String(stats.errors).padStart(7)} ${mb(last.rss).padStart(8)} ${mb(last.heapUsed).padStart(8)}`,
  );
}, REPORT_MS);

await Promise.all(Array.from({ length: connections }, (_, index) => client(server.baseUrl, index, until)));
clearInterval(sampler);
clearInterval(reporter);

// Graceful shutdown must work after the load too.
const exited = new Promise((resolve) => server.child.once('exit', (code) => resolve(code)));
server.child.kill('SIGTERM');
const exitCode = await exited;
rmSync(folder, { recursive: true, force: true });
rmSync(bundle, { force: true });

const judged = samples.filter((sample) => sample.t >= durationMs * WARMUP);
const third = Math.max(1, Math.floor(judged.length / 3));
const first = judged.slice(0, third);
const lastThird = judged.slice(-third);
const growth = (key) => mean(lastThird.map((s) => s[key])) / mean(first.map((s) => s[key])) - 1;
const rssGrowth = growth('rss');
const heapGrowth = growth('heapUsed');
const seconds = (Date.now() - started) / 1000;

console.log('');
console.log(`requests: ${stats.requests} in ${seconds.toFixed(0)} s (${(stats.requests / seconds).toFixed(0)} req/s)`);
console.log(
  `  by kind: ${Object.entries(stats.byKind)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ')}`,
);
console.log(`errors: ${stats.errors}`);
for (const line of stats.firstErrors) console.log(`  ${line}`);
if (samples.length > 0) {
  console.log(
    `RSS MB: min ${mb(Math.min(...samples.map((s) => s.rss)))}, max ${mb(Math.max(...samples.map((s) => s.rss)))}; after warm-up first third ${mb(mean(first.map((s) => s.rss)))}, last third ${mb(mean(lastThird.map((s) => s.rss)))} (${(rssGrowth * 100).toFixed(1)}%)`,
  );
  console.log(
    `heap MB: first third ${mb(mean(first.map((s) => s.heapUsed)))}, last third ${mb(mean(lastThird.map((s) => s.heapUsed)))} (${(heapGrowth * 100).toFixed(1)}%)`,
  );
} else {
  console.log('memory: no samples (/proc is not available on this system)');
}
console.log(`server exit code after SIGTERM: ${exitCode}`);

const failures = [];
if (stats.errors > 0) failures.push(`${stats.errors} errors`);
if (rssGrowth > allowedGrowth) failures.push(`RSS grew ${(rssGrowth * 100).toFixed(1)}%`);
if (heapGrowth > allowedGrowth) failures.push(`heap grew ${(heapGrowth * 100).toFixed(1)}%`);
if (exitCode !== 0) failures.push(`the server exited ${exitCode} on SIGTERM`);
console.log(failures.length === 0 ? 'soak: OK' : `soak: FAILED (${failures.join('; ')})`);
process.exit(failures.length === 0 ? 0 : 1);
