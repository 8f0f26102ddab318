// Live events (issue #29): one server process (the tracker, Express, its memory store or
// PostgreSQL) holds --streams open `GET /api/issues/events` streams (viewers of --orgs
// organizations, spread evenly), and takes --rate issue creates per second for --seconds, each by
// a member of one organization in turn; every stream of that organization must receive its
// `created` event. Reported: the server's memory per open stream (RSS and heap after a full GC,
// before and after opening them), the delivery latency of every event (from the moment its write
// was sent to the moment the subscriber read it: p50, p99, max; the writes' own times, which it
// includes), events missing, and the server's CPU. The clients run in this process (node:http, one connection per stream). Usage:
//   npm run build && node bench/live.mjs [--only memory,postgres] [--streams 1000] [--rate 200] [--seconds 20]
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';
import { BENCH_DATABASE, benchPostgresPool, percentile } from './lib/sql-bench.mjs';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'memory,postgres' },
    streams: { type: 'string', default: '1000' },
    orgs: { type: 'string', default: '50' },
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '20' },
    'pg-url': { type: 'string', default: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    source: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(
    'node bench/live.mjs [--only memory,postgres] [--streams N] [--orgs N] [--rate N] [--seconds N] [--pg-url URL] [--source]',
  );
  process.exit(0);
}
const STREAMS = Number(args.streams);
const ORGS = Number(args.orgs);
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const PREFIX = 'live_bench_';
const secret = new TextEncoder().encode('live-bench-secret');
const token = (sub, org, role) => new SignJWT({ sub, org, role }).setProtectedHeader({ alg: 'HS256' }).sign(secret);

function startServer(store) {
  const child = fork(
    fileURLToPath(new URL('./lib/live-server.mjs', import.meta.url)),
    [store, args.source ? 'source' : 'dist', PREFIX],
    {
      execArgv: [
        '--expose-gc',
        ...(process.env.LIVE_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=bench/results/profiles'] : []),
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const ask = (what) =>
    new Promise((resolve) => {
      const on = (message) => {
        if (message[what] !== undefined) {
          child.off('message', on);
          resolve(message[what]);
        }
      };
      child.on('message', on);
      child.send(what);
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    child.once('message', (message) => resolve({ port: message.port, child, ask }));
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function request(port, method, path, authorization, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `/api${path}`,
        agent,
        headers: { authorization, 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** Opens one stream; `onEvent(data)` for each event; resolves once the first line came. */
function openStream(port, authorization, onEvent) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/issues/events',
        agent: false,
        headers: { authorization, accept: 'text/event-stream' },
      },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream: ${res.statusCode}`));
        res.setEncoding('utf8');
        let buffer = '';
        let opened = false;
        res.on('data', (chunk) => {
          buffer += chunk;
          if (!opened) {
            opened = true;
            resolve(req);
          }
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = /^data: (.*)$/m.exec(block);
            if (data) onEvent(data[1]);
          }
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function run(storeName) {
  let store = 'memory';
  if (storeName === 'postgres') {
    const pool = await benchPostgresPool(args['pg-url']);
    const { rows } = await pool.query(
      `select tablename from pg_tables where schemaname = 'public' and tablename like '${PREFIX}%'`,
    );
    for (const { tablename } of rows) await pool.query(`drop table if exists "${tablename}" cascade`);
    await pool.end();
    const url = new URL(args['pg-url']);
    url.pathname = `/${BENCH_DATABASE}`;
    store = url.href;
  }
  const server = await startServer(store);
  const { port } = server;
  const orgs = [];
  for (let org = 1; org <= ORGS; org++) {
    const admin = `Bearer ${await token(org * 1000 + 1, org, 'admin')}`;
    const member = `Bearer ${await token(org * 1000 + 2, org, 'member')}`;
    const viewer = `Bearer ${await token(org * 1000 + 3, org, 'viewer')}`;
    const project = await request(port, 'POST', '/projects', admin, { name: `Project ${org}` });
    if (project.status !== 200) throw new Error(`project: ${project.status} ${JSON.stringify(project.body)}`);
    orgs.push({ org, member, viewer, projectId: project.body.project.id });
  }
  const before = await server.ask('memory');
  const sent = new Map(); // title → send time
  const answered = new Map(); // title → the time its write was answered (committed before)
  const received = []; // [title, time] of every event
  const latencies = [];
  const streams = [];
  for (let n = 0; n < STREAMS; n++) {
    const { viewer } = orgs[n % ORGS];
    streams.push(
      await openStream(port, viewer, (data) => {
        const at = performance.now();
        const title = /"title":"(w\d+)"/.exec(data)?.[1];
        const start = title && sent.get(title);
        if (start !== undefined) {
          latencies.push(at - start);
          received.push([title, at]);
        }
      }),
    );
  }
  const opened = await server.ask('memory');
  const cpuBefore = await server.ask('cpu');
  const writes = RATE * SECONDS;
  const failures = [];
  const writeTimes = [];
  const started = performance.now();
  const pending = [];
  for (let w = 0; w < writes; w++) {
    const due = started + (w * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const { member, projectId } = orgs[w % ORGS];
    const title = `w${w}`;
    const at = performance.now();
    sent.set(title, at);
    pending.push(
      request(port, 'POST', '/issues', member, { issue: { projectId, title } }).then((reply) => {
        answered.set(title, performance.now());
        writeTimes.push(performance.now() - at);
        if (reply.status !== 200) failures.push(reply.status);
      }),
    );
  }
  await Promise.all(pending);
  const expected = writes * (STREAMS / ORGS);
  const deadline = performance.now() + 10_000;
  while (received.length < expected && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = await server.ask('cpu');
  latencies.sort((a, b) => a - b);
  // After the write's answer (a change is committed before its answer goes): negative when the event came first.
  const afterAnswer = received.map(([title, at]) => at - answered.get(title)).sort((a, b) => a - b);
  writeTimes.sort((a, b) => a - b);
  const perStream = (key) => (opened[key] - before[key]) / STREAMS / 1024;
  const result = {
    store: storeName,
    streams: STREAMS,
    orgs: ORGS,
    writesPerSecond: RATE,
    writes,
    failedWrites: failures.length,
    events: { expected, received: received.length, missing: expected - received.length },
    latencyMs: {
      p50: +percentile(latencies, 50).toFixed(1),
      p99: +percentile(latencies, 99).toFixed(1),
      max: +(latencies.at(-1) ?? 0).toFixed(1),
    },
    afterAnswerMs: { p50: +percentile(afterAnswer, 50).toFixed(1), p99: +percentile(afterAnswer, 99).toFixed(1) },
    // How long the writes themselves took (sent to answered): the events' latency includes it.
    writeMs: { p50: +percentile(writeTimes, 50).toFixed(1), p99: +percentile(writeTimes, 99).toFixed(1) },
    memoryPerStreamKB: {
      rss: +perStream('rss').toFixed(1),
      heap: +(perStream('heapUsed') + perStream('external')).toFixed(1),
    },
    serverCpuPercent: +(
      ((cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system) / 1000 / (elapsed * 1000)) *
      100
    ).toFixed(0),
  };
  for (const stream of streams) stream.destroy();
  server.child.send('stop');
  await new Promise((resolve) => server.child.once('exit', resolve));
  return result;
}

const results = [];
for (const name of args.only.split(',')) {
  const result = await run(name);
  results.push(result);
  console.log(JSON.stringify(result));
}
agent.destroy();
const folder = fileURLToPath(new URL('./results/', import.meta.url));
mkdirSync(folder, { recursive: true });
writeFileSync(join(folder, 'live.json'), `${JSON.stringify({ at: new Date().toISOString(), results }, null, 2)}\n`);
