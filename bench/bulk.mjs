// Bulk creates (issue #28): 100 of the tracker's issues created (a) by 100 single `POST /issues`,
// one after the other, (b) by one bulk `POST /issues` of the 100, and (c) by a hand-written route
// that makes the same checks and writes them with ONE multi-row `INSERT ... RETURNING`
// (contenders/by-hand/bulk-issues.mjs), on SQLite (a file, WAL, synchronous=FULL) and PostgreSQL.
// The resource is the tracker's own `issues` (tenancy, a member's bearer token, access, timestamps,
// defaults, the labelIds many-to-many, search words): the hand-written route can do all of it,
// so nothing is left out to make the comparison fair. Every request goes through `api.handle`
// (the core with no sockets; the route takes the same neutral request), so that the ratios are
// the library's work and the database's, not the transport's. In one run, rounds in turns (each
// round starts with another variant): the batch times' p50/p99 and the median of the rounds'
// ratios; every answer is checked, and before anything is timed (b) and (c) must answer the same
// batch alike (same records, ids and times aside) and refuse the same bad batch at the same
// fields. Usage:
//   npm run build && node bench/bulk.mjs [--only sqlite,postgres] [--rounds 40]
//   node --cpu-prof --cpu-prof-dir=bench/results/profiles bench/bulk.mjs --only postgres --variants bulk
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { SignJWT } from 'jose';
import pg from 'pg';
import { bulkIssuesByHand } from './contenders/by-hand/bulk-issues.mjs';
import { postgresIssues, sqliteIssues } from './contenders/by-hand/bulk-issues-sql.mjs';
import { BENCH_DATABASE, benchPostgresPool, cpuClock, percentile } from './lib/sql-bench.mjs';
import { median } from './lib/stats.mjs';
import { importBundle } from './lib/workspace.mjs';

const HELP = `Usage: node bench/bulk.mjs [options]

  --only A,B        databases: sqlite, postgres (default both)
  --rounds N        timed rounds per database (default 40), after --warmup untimed ones (default 5)
  --records N       records per batch (default 100, the tracker's bulk maximum)
  --variants A,B    singles, bulk, by-hand (default all; one alone, for a CPU profile)
  --pg-url URL      server to use (default $PG_URL or postgres://postgres@127.0.0.1:5432/test); the
                    benchmark's tables are bulk_* in its own database (${BENCH_DATABASE})
  --keep-count off  the tracker's issues without their kept count (keepCount: the triggers that keep
                    each organization's count on PostgreSQL, which every variant's writes then skip)
  --uniform         every entry sends every field (null where it has no value), rather than a
                    mix of entries that leave different optional fields out
  --source          the library from its sources (esbuild) rather than the built dist/
  --help            this text`;

const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'sqlite,postgres' },
    rounds: { type: 'string', default: '40' },
    warmup: { type: 'string', default: '5' },
    records: { type: 'string', default: '100' },
    variants: { type: 'string', default: 'singles,bulk,by-hand' },
    'pg-url': { type: 'string', default: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    uniform: { type: 'boolean', default: false },
    'keep-count': { type: 'string', default: 'on' },
    source: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}

const lib = await importBundle(
  `export { bearerJwt, createApi, defineResource } from '@resourcery/core';
   export { searchWords } from '@resourcery/core/store';
   export { sqlStore } from '@resourcery/sql';
   export { resources } from './examples/tracker/src/resources.ts';
   export { Issue } from './examples/tracker/src/models.ts';
   export { trackerPrincipal } from './examples/tracker/src/principal.ts';`,
  { source: args.source, name: 'bulk' },
);

/** The tracker's resources, its issues without their kept count with `--keep-count off`. */
const RESOURCES =
  args['keep-count'] === 'off'
    ? lib.resources.map((resource) =>
        resource.name === 'issue' ? lib.defineResource({ ...resource.options, keepCount: false }) : resource,
      )
    : lib.resources;
const RECORDS = Number(args.records);
const ROUNDS = Number(args.rounds);
const WARMUP = Number(args.warmup);
const VARIANTS = args.variants.split(',');
const PREFIX = 'bulk_';
const SECRET = 'bulk-bench-secret-of-32-characters!';
const NAMES = { singles: `${RECORDS} single creates`, bulk: '1 bulk create', 'by-hand': 'by hand (1 INSERT)' };

const sign = (org, role, sub) =>
  new SignJWT({ org, role })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(sub))
    .sign(new TextEncoder().encode(SECRET));
const member = await sign(1, 'member', 2);

/** A request as an adapter hands it to the core: headers, and the body's bytes. */
function request(method, path, token, text) {
  const bytes = Buffer.from(text ?? '');
  return {
    method,
    path,
    basePath: '/api',
    rawQuery: '',
    headers: {
      authorization: `Bearer ${token}`,
      ...(text === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(bytes.length) }),
    },
    ...(text === undefined
      ? {}
      : {
          body: (async function* () {
            yield bytes;
          })(),
          readDeclaredBody: async () => bytes,
        }),
  };
}

// ---- the data ----

/** A small deterministic generator (mulberry32) of numbers in [0, 1). */
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
const VOCABULARY =
  'login crash button save error page slow search export import timeout token user admin label report chart upload download email invite billing invoice theme dark mobile layout scroll cache sync retry'.split(
    ' ',
  );

/** With --uniform, every entry sends every field (`null` or the default where the mixed one leaves it out). */
const UNIFORM = {
  body: null,
  status: 'open',
  priority: 3,
  assigneeId: null,
  dueDate: null,
  estimate: null,
  labelIds: [],
};

/** `RECORDS` issues of organization 1 (its `seeded` projects, users and labels), the same for a seed. */
function batchOf(seed, seeded) {
  const random = generator(seed);
  const int = (n) => Math.floor(random() * n);
  const pick = (list) => list[int(list.length)];
  const words = (n) => Array.from({ length: n }, () => pick(VOCABULARY)).join(' ');
  return Array.from({ length: RECORDS }, () => {
    const entry = { projectId: pick(seeded.projects), title: words(3 + int(5)) };
    if (random() < 0.7) entry.body = words(10 + int(40));
    if (random() < 0.5) entry.status = pick(['open', 'in_progress', 'done']);
    if (random() < 0.5) entry.priority = 1 + int(4);
    if (random() < 0.6) entry.assigneeId = pick(seeded.users);
    if (random() < 0.5) entry.dueDate = `2027-0${1 + int(9)}-${String(1 + int(28)).padStart(2, '0')}`;
    if (random() < 0.6) entry.estimate = `${int(40)}.${String(int(100)).padStart(2, '0')}`;
    const labels = new Set(Array.from({ length: int(4) }, () => pick(seeded.labels)));
    if (labels.size > 0 || random() < 0.2) entry.labelIds = [...labels];
    return args.uniform ? { ...UNIFORM, ...entry } : entry;
  });
}

/** Users, projects and labels of organizations 1 and 2, through the API as their admins; organization 1's ids, and 2's. */
async function seed(api) {
  const ids = { users: [], projects: [], labels: [], other: { users: [], projects: [], labels: [] } };
  for (const org of [1, 2]) {
    const admin = await sign(org, 'admin', 1);
    const create = async (path, name, body) => {
      const answer = await api.handle(request('POST', path, admin, JSON.stringify({ [name]: body })));
      if (answer.status !== 200) throw new Error(`seed ${path}: ${answer.status} ${answer.body}`);
      return JSON.parse(answer.body)[name].id;
    };
    for (let n = 0; n < 20; n++) {
      const id = await create('/users', 'user', {
        name: `User ${n}`,
        email: `u${n}@org${org}.example`,
        role: 'member',
      });
      (org === 1 ? ids : ids.other).users.push(id);
    }
    for (let n = 0; n < 10; n++) {
      const id = await create('/projects', 'project', { name: `Project ${n}` });
      (org === 1 ? ids : ids.other).projects.push(id);
    }
    for (let n = 0; n < 10; n++) {
      const id = await create('/labels', 'label', { name: `label-${n}`, color: `#0000${String(n).padStart(2, '0')}` });
      (org === 1 ? ids : ids.other).labels.push(id);
    }
  }
  return ids;
}

// ---- the stores ----

/** The tracker's API on `store`, as the example builds it (bearer tokens, tenancy by `orgId`). */
function apiOn(store) {
  return lib.createApi({
    resources: RESOURCES,
    store,
    secret: 'bulk bench cursor secret, 16+ characters',
    authenticate: lib.bearerJwt({ secret: SECRET, principal: lib.trackerPrincipal }),
    tenancy: { field: 'orgId', of: (principal) => principal.org },
  });
}

const byHand = (db) =>
  bulkIssuesByHand({
    Issue: lib.Issue,
    principal: lib.trackerPrincipal,
    secret: SECRET,
    searchWords: lib.searchWords,
    db,
  });

/** A new SQLite file: the store's own connection (WAL, synchronous=FULL), and the route's, set alike. */
async function openSqlite() {
  const folder = mkdtempSync(join(os.tmpdir(), 'resourcery-bulk-'));
  const file = join(folder, 'tracker.sqlite');
  const api = apiOn(lib.sqlStore(`sqlite:${file}`));
  await api.ready();
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  return {
    label: `SQLite ${database.prepare('select sqlite_version() as v').pluck().get()}`,
    api,
    route: byHand(sqliteIssues(database, '')),
    count: async () => database.prepare('select count(*) from issues').pluck().get(),
    stored: async (ids) => {
      const marks = ids.map(() => '?').join(', ');
      const joins = database
        .prepare(`select "issueId", "labelId", "orgId", "archivedAt" from issue_labels where "issueId" in (${marks})`)
        .raw()
        .all(...ids);
      const changes = database
        .prepare(
          `select "recordId", kind, "after" from resourcery_changes where collection = 'issues' and "recordId" in (${marks})`,
        )
        .raw()
        .all(...ids.map(String));
      return { joins, changes };
    },
    close: async () => {
      await api.close();
      database.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The benchmark's database: its bulk_* tables dropped and made again by the store; pools of 10. */
async function openPostgres() {
  const admin = await benchPostgresPool(args['pg-url'], { max: 1 });
  const { rows } = await admin.query(
    `select tablename from pg_tables where schemaname = current_schema() and tablename like 'bulk\\_%'`,
  );
  for (const { tablename } of rows) await admin.query(`drop table if exists "${tablename}" cascade`);
  const version = (await admin.query('show server_version')).rows[0].server_version;
  await admin.end();
  const url = new URL(args['pg-url']);
  url.pathname = `/${BENCH_DATABASE}`;
  const api = apiOn(lib.sqlStore(url.href, { tablePrefix: PREFIX }));
  await api.ready();
  const DATE = 1082;
  const pool = new pg.Pool({
    connectionString: url.href,
    max: 10,
    types: { getTypeParser: (oid, format) => (oid === DATE ? (text) => text : pg.types.getTypeParser(oid, format)) },
  });
  return {
    label: `PostgreSQL ${version.split(' ')[0]}${args['keep-count'] === 'off' ? ' (issues without keepCount)' : ''}`,
    // The CPU time of this process and of the database's server processes that serve it (the
    // library's pool and the route's), once both pools are open.
    clock: async () => {
      const { rows } = await pool.query('select pid from pg_stat_activity where datname = $1', [BENCH_DATABASE]);
      return cpuClock(rows.map((row) => row.pid));
    },
    api,
    route: byHand(postgresIssues(pool, PREFIX)),
    count: async () => Number((await pool.query(`select count(*) from ${PREFIX}issues`)).rows[0].count),
    stored: async (ids) => {
      const rows = async (text, values) => (await pool.query({ text, values, rowMode: 'array' })).rows;
      const joins = await rows(
        `select "issueId"::int, "labelId"::int, "orgId"::int, "archivedAt" from ${PREFIX}issue_labels where "issueId" = any($1)`,
        [ids],
      );
      const changes = await rows(
        `select "recordId", kind, "after" from ${PREFIX}resourcery_changes where collection = 'issues' and "recordId" = any($1)`,
        [ids.map(String)],
      );
      return { joins, changes };
    },
    close: async () => {
      await api.close();
      await pool.end();
    },
  };
}

// ---- the checks ----

/** An answer's issues with what differs between two writes of the same batch (ids, times) taken out. */
function comparable(body) {
  return JSON.parse(body).issues.map(({ id, createdAt, updatedAt, ...rest }) => {
    if (!Number.isSafeInteger(id) || Number.isNaN(Date.parse(createdAt)) || createdAt !== updatedAt)
      throw new Error(`unexpected id or times: ${JSON.stringify({ id, createdAt, updatedAt })}`);
    return rest;
  });
}

/**
 * What (b) and (c) wrote besides the issues is alike: the join rows with their copies of the
 * issue's tenant and archive, and one `created` change per issue whose record is the answer's.
 */
async function sameStored(target, ...bodies) {
  const views = [];
  for (const body of bodies) {
    const ids = JSON.parse(body).issues.map((issue) => issue.id);
    const at = (id) => ids.indexOf(Number(id));
    const { joins, changes } = await target.stored(ids);
    const recordOf = (text) => comparable(`{"issues":[${text}]}`)[0];
    views.push(
      JSON.stringify([
        joins.map(([issue, ...rest]) => [at(issue), ...rest]).sort(),
        changes.map(([id, kind, after]) => [at(id), kind, recordOf(after)]).sort((a, b) => a[0] - b[0]),
      ]),
    );
  }
  if (views[0] !== views[1])
    throw new Error(`check: the join rows or changes differ\n${views.map((view) => view.slice(0, 2000)).join('\n')}`);
}

/** (b) and (c) answer one batch alike, and a single create its first record; a bad batch is refused alike, nothing written. */
async function check(target, seeded) {
  const batch = batchOf(0xc0ffee, seeded);
  const text = JSON.stringify({ issues: batch });
  const bulk = await target.api.handle(request('POST', '/issues', member, text));
  const hand = await target.route(request('POST', '/issues', member, text));
  const single = await target.api.handle(request('POST', '/issues', member, JSON.stringify({ issue: batch[0] })));
  if (bulk.status !== 200 || hand.status !== 200 || single.status !== 200)
    throw new Error(`check: ${bulk.status} ${hand.status} ${single.status}\n${bulk.body}\n${hand.body}`);
  const [b, c] = [comparable(bulk.body), comparable(hand.body)];
  const s = comparable(`{"issues":[${single.body.slice('{"issue":'.length, -1)}]}`);
  if (JSON.stringify(b) !== JSON.stringify(c) || JSON.stringify(s[0]) !== JSON.stringify(b[0]))
    throw new Error(
      `check: the answers differ\n${JSON.stringify(b[0])}\n${JSON.stringify(c[0])}\n${JSON.stringify(s[0])}`,
    );
  await sameStored(target, bulk.body, hand.body);
  const ok = batch[1];
  const bad = [
    ok,
    { ...ok, projectId: seeded.other.projects[0] },
    { ...ok, title: '', priority: 9, status: 'later' },
    { ...ok, labelIds: [seeded.labels[0], seeded.other.labels[0]], assigneeId: seeded.other.users[0] },
    { ...ok, orgId: 2, color: 'red', dueDate: '2027-02-30' },
    { projectId: ok.projectId },
  ];
  const before = await target.count();
  let fields = 0;
  // Entries that are no object are refused first, alone; then every field of every record.
  for (const list of [bad, [...bad, 'not an object']]) {
    const refusals = [];
    for (const handle of [(r) => target.api.handle(r), target.route]) {
      const answer = await handle(request('POST', '/issues', member, JSON.stringify({ issues: list })));
      if (answer.status !== 422) throw new Error(`check: a bad batch answered ${answer.status}: ${answer.body}`);
      refusals.push(Object.keys(JSON.parse(answer.body).errors).sort().join(' '));
    }
    if (refusals[0] !== refusals[1]) throw new Error(`check: the bad batch's errors differ\n${refusals.join('\n')}`);
    fields += refusals[0].split(' ').length;
  }
  if ((await target.count()) !== before) throw new Error('check: a refused batch wrote records');
  const viewer = await sign(1, 'viewer', 3);
  const statuses = [];
  for (const handle of [(r) => target.api.handle(r), target.route])
    statuses.push((await handle(request('POST', '/issues', viewer, text))).status);
  if (statuses.join() !== '403,403') throw new Error(`check: a viewer's batch answered ${statuses}`);
  return fields;
}

// ---- the rounds ----

/** Each variant's work for one batch: the requests are made before the clock starts. */
function variantsOn(target) {
  const expect = (answer, what) => {
    if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${answer.body}`);
  };
  return {
    singles: (batch, latencies) => {
      const requests = batch.map((entry) => request('POST', '/issues', member, JSON.stringify({ issue: entry })));
      return async () => {
        for (const one of requests) {
          const started = performance.now();
          expect(await target.api.handle(one), 'single create');
          latencies.push(performance.now() - started);
        }
      };
    },
    bulk: (batch) => {
      const one = request('POST', '/issues', member, JSON.stringify({ issues: batch }));
      return async () => expect(await target.api.handle(one), 'bulk create');
    },
    'by-hand': (batch) => {
      const one = request('POST', '/issues', member, JSON.stringify({ issues: batch }));
      return async () => expect(await target.route(one), 'by hand');
    },
  };
}

async function measure(target, seeded) {
  const variants = variantsOn(target);
  const times = Object.fromEntries(VARIANTS.map((name) => [name, []]));
  const cpu = Object.fromEntries(VARIANTS.map((name) => [name, []]));
  const latencies = [];
  let clock = cpuClock();
  for (let round = -WARMUP; round < ROUNDS; round++) {
    if (round === 0 && target.clock) clock = await target.clock();
    const batch = batchOf(round + 1000, seeded);
    const start = ((round % VARIANTS.length) + VARIANTS.length) % VARIANTS.length;
    for (let n = 0; n < VARIANTS.length; n++) {
      const name = VARIANTS[(start + n) % VARIANTS.length];
      const run = variants[name](batch, round < 0 ? [] : latencies);
      const used = clock();
      const started = performance.now();
      await run();
      const elapsed = performance.now() - started;
      if (round < 0) continue;
      times[name].push(elapsed);
      cpu[name].push(clock() - used);
    }
    const where = round < 0 ? `warm-up ${round + WARMUP + 1} of ${WARMUP}` : `round ${round + 1} of ${ROUNDS}`;
    process.stdout.write(`\r${target.label}: ${where}   `);
  }
  process.stdout.write('\n');
  return { times, cpu, latencies, servers: clock.servers };
}

/**
 * The rounds' ratios `a / b` (each round's batches ran back to back, under the same load): their
 * median, range, and in how many rounds they reached `target`.
 */
function ratio(a, b, target) {
  if (!a || !b) return undefined;
  const each = a.map((value, round) => value / b[round]);
  const reached = each.filter((value) => value >= target).length;
  return { median: median(each), min: Math.min(...each), max: Math.max(...each), reached, rounds: each.length, target };
}

const sorted = (list) => [...list].sort((x, y) => x - y);
const ms = (value) => value.toFixed(value < 10 ? 2 : 1);
const times = (value) => `${value.toFixed(value < 10 ? 2 : 1)}×`;
const judged = (r) =>
  `${times(r.median)} (${times(r.min)}–${times(r.max)}, ${r.reached}/${r.rounds} rounds ≥ ${r.target}×) ${r.median >= r.target ? 'met' : '**not met**'}`;
const p50p99 = (list) => `${ms(percentile(sorted(list), 50))} / ${ms(percentile(sorted(list), 99))}`;

const rows = [];
const loaders = { sqlite: openSqlite, postgres: openPostgres };
for (const name of args.only.split(',')) {
  const target = await loaders[name]();
  const seeded = await seed(target.api);
  const fields = await check(target, seeded);
  console.log(`${target.label}: checks passed (same answers; the bad batches refused at the same ${fields} fields)`);
  const result = await measure(target, seeded);
  await target.close();
  const row = {
    label: target.label,
    ...result,
    speedup: ratio(result.times.singles, result.times.bulk, 10),
    cpuSpeedup: ratio(result.cpu.singles, result.cpu.bulk, 10),
    against: ratio(result.times['by-hand'], result.times.bulk, 0.8),
    cpuAgainst: ratio(result.cpu['by-hand'], result.cpu.bulk, 0.8),
  };
  rows.push(row);
  const cpuOf =
    result.servers > 0 ? `this process and the ${result.servers} database processes serving it` : 'this process';
  console.log(`  ms per batch of ${RECORDS}, p50 / p99 of ${ROUNDS} rounds; CPU: ${cpuOf}`);
  for (const variant of VARIANTS) {
    console.log(
      `  ${NAMES[variant].padEnd(22)} ${p50p99(result.times[variant]).padStart(16)}   CPU ${p50p99(result.cpu[variant])}`,
    );
  }
  if (result.latencies.length > 0)
    console.log(`  ${'one single create'.padEnd(22)} ${p50p99(result.latencies).padStart(16)}`);
  if (row.speedup) console.log(`  bulk vs singles (time a / b): ${judged(row.speedup)}; CPU ${judged(row.cpuSpeedup)}`);
  if (row.against) console.log(`  bulk vs by hand (time c / b): ${judged(row.against)}; CPU ${judged(row.cpuAgainst)}`);
}

const results = fileURLToPath(new URL('results/', import.meta.url));
const file = join(results, `bulk-${new Date().toISOString().slice(0, 19).replaceAll(':', '-')}.json`);
mkdirSync(results, { recursive: true });
writeFileSync(file, JSON.stringify({ args, records: RECORDS, rows }, null, 2));
if (VARIANTS.length === 3) {
  console.log(
    `\n${args.uniform ? 'Uniform' : 'Mixed'} batches of ${RECORDS} records, ${ROUNDS} rounds (+${WARMUP} untimed); every round in ${relative(process.cwd(), file)}\n`,
  );
  console.log(
    `| store | ${RECORDS} single creates (a) | 1 bulk create (b) | by hand, 1 INSERT (c) | b vs a: time, CPU (target ≥ 10×) | b vs c: time, CPU (target ≥ 0.8×) |`,
  );
  console.log('| --- | --: | --: | --: | --: | --: |');
  for (const row of rows) {
    console.log(
      `| ${row.label} | ${p50p99(row.times.singles)} | ${p50p99(row.times.bulk)} | ${p50p99(row.times['by-hand'])} | ${judged(row.speedup)}; ${times(row.cpuSpeedup.median)} | ${judged(row.against)}; ${times(row.cpuAgainst.median)} |`,
    );
  }
}
