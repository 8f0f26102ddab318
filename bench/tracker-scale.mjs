// The tracker at scale (issue #27): 1,000,000 issues of 10 organizations, each with 100 projects,
// 50 labels and 20 users, in PostgreSQL and SQLite, through the tables, join table and search
// index the store itself makes. Times the requests of docs/performance.md "The tracker at 1M
// issues" through `api.handle` (a member's bearer token verified on every request, the access
// model, the store, the answer's JSON), each one's p50/p99 over a random organization per
// request, counts its store queries and prints their plans. The timed store is opened from a URL,
// as an application opens it (its own connections: named statements on PostgreSQL, statements
// prepared once on SQLite); the queries are counted and explained on a second store over a
// Kysely that records them. Usage:
//   npm run build && node bench/tracker-scale.mjs [--only sqlite,postgres] [--issues N] [--reload]
// The data are kept (PostgreSQL: the benchmark's own database; SQLite: a file in the temporary
// folder) and reloaded only when the number of issues differs or with --reload.
import { existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { SignJWT } from 'jose';
import { PostgresDialect, SqliteDialect, sql } from 'kysely';
import {
  BENCH_DATABASE,
  benchPostgresPool,
  explainPostgres,
  explainSqlite,
  loadInBatches,
  recordingKysely,
  summarize,
} from './lib/sql-bench.mjs';
import { importBundle } from './lib/workspace.mjs';

const HELP = `Usage: node bench/tracker-scale.mjs [options]

  --issues N       issues to load (default 1000000), spread over 10 organizations
  --requests N     timed requests per scenario and database, after 10% untimed (default 500)
  --only A,B       databases: sqlite, postgres (default both)
  --pg-url URL     server to use (default $PG_URL or postgres://postgres@127.0.0.1:5432/test); the
                   benchmark keeps its own database, resourcery_bench, on it
  --sqlite FILE    SQLite file (default <tmpdir>/resourcery-tracker-bench.sqlite, kept for reruns)
  --reload         drop and reload the data (also when the store's tables changed since they were
                   loaded: the store refuses them at start, its message giving the migration)
  --source         the library from its sources (esbuild) rather than the built dist/
  --plans          print each scenario's statements and their plans
  --scenarios TEXT only the scenarios whose name contains TEXT (several: comma-separated)
  --help           this text

The slowest requests are mostly Node's young-generation collections: compare runs with and without
node --max-semi-space-size=4 (docs/deployment.md, "Node's young generation and the slowest requests").`;

const { values: args } = parseArgs({
  options: {
    issues: { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '500' },
    only: { type: 'string', default: 'sqlite,postgres' },
    'pg-url': { type: 'string', default: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    sqlite: { type: 'string', default: join(os.tmpdir(), 'resourcery-tracker-bench.sqlite') },
    reload: { type: 'boolean', default: false },
    source: { type: 'boolean', default: false },
    plans: { type: 'boolean', default: false },
    scenarios: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}

const lib = await importBundle(
  `export { bearerJwt, createApi } from '@resourcery/core';
   export { searchWords } from '@resourcery/core/store';
   export { sqlStore } from '@resourcery/sql';
   export { resources } from './examples/tracker/src/resources.ts';
   export { trackerPrincipal } from './examples/tracker/src/principal.ts';`,
  { source: args.source, name: 'tracker-scale' },
);

const ISSUES = Number(args.issues);
const REQUESTS = Number(args.requests);
const ORGS = 10;
const PROJECTS = 100; // per organization
const LABELS = 50;
const USERS = 20;
const PREFIX = 'tracker_';
const SECRET = 'tracker-scale-bench-secret';
const TABLES = ['comments', 'issue_labels', 'issues', 'labels', 'projects', 'users'];

// ---- the data (deterministic) ----

/** A small deterministic hash of integers, for every random-looking choice of the seed. */
function hash(...values) {
  let h = 2166136261;
  for (const value of values) {
    h = Math.imul(h ^ value, 16777619);
    h ^= h >>> 13;
    h = Math.imul(h, 0x5bd1e995);
    h ^= h >>> 15;
  }
  return h >>> 0;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** 20,000 words of 3 to 10 letters, made of the hash of their rank. */
const VOCABULARY = Array.from({ length: 20_000 }, (_, rank) => {
  const length = 3 + (hash(rank, 1) % 8);
  let word = '';
  for (let n = 0; n < length; n++) word += LETTERS[hash(rank, 2, n) % LETTERS.length];
  return word;
});
/** Zipf's law (a word's frequency falls as 1 / its rank), as in the words of a language. */
const CUMULATIVE = (() => {
  let sum = 0;
  const sums = VOCABULARY.map((_, rank) => {
    sum += 1 / (rank + 1);
    return sum;
  });
  return sums.map((value) => value / sum);
})();
/** The rank of the word whose cumulative frequency first reaches `u` (0 <= u < 1). */
function rankAt(u) {
  let low = 0;
  let high = CUMULATIVE.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((CUMULATIVE[middle] ?? 1) < u) low = middle + 1;
    else high = middle;
  }
  return low;
}
/** A word of the vocabulary, as often as Zipf's law says. */
const word = (...seed) => VOCABULARY[rankAt(hash(...seed) / 2 ** 32)];
const words = (count, ...seed) => Array.from({ length: count }, (_, w) => word(...seed, w)).join(' ');
/** The 100 most frequent words (each in more than 4% of the issues): what nobody searches for. */
const COMMON = new Set(VOCABULARY.slice(0, 100));

const LABEL_NAMES = [
  'bug',
  'ui',
  'backend',
  'docs',
  'security',
  ...Array.from({ length: LABELS - 5 }, (_, i) => `area-${i}`),
];
const STATUSES = ['open', 'open', 'open', 'in_progress', 'done', 'done'];
const organizationOf = (i) => 1 + (i % ORGS);
const projectOf = (org, i) => (org - 1) * PROJECTS + 1 + (hash(i, 3) % PROJECTS);
const userOf = (org, n) => (org - 1) * USERS + 1 + (n % USERS);
const labelOf = (org, n) => (org - 1) * LABELS + 1 + n;

/** Issue `i` (0-based), as its columns. */
function issue(i) {
  const org = organizationOf(i);
  const h = hash(i, 4);
  const day = 1 + (h % 365);
  const created = new Date(Date.UTC(2025, 0, 1) + i * 20_000);
  return {
    orgId: org,
    projectId: projectOf(org, i),
    title: `${words(4 + (h % 5), i, 5)}`,
    body: h % 10 < 3 ? null : words(10 + (h % 50), i, 6),
    status: STATUSES[h % STATUSES.length],
    priority: 1 + (hash(i, 7) % 4),
    assigneeId: h % 4 === 0 ? null : userOf(org, hash(i, 8)),
    dueDate: h % 2 === 0 ? null : new Date(Date.UTC(2026, 0, day)).toISOString().slice(0, 10),
    estimate: h % 10 < 3 ? null : (50 + (hash(i, 9) % 3950)) / 100,
    archivedAt: h % 50 === 0 ? created : null,
    createdAt: created,
    updatedAt: created,
  };
}

/** The labels of issue `i`: none to three of its organization's, `bug` (label 0) more often. */
function labelsOf(i) {
  const org = organizationOf(i);
  const count = hash(i, 10) % 4;
  const chosen = new Set();
  for (let n = 0; n < count; n++) {
    const pick = hash(i, 11, n) % (LABELS * 2);
    chosen.add(labelOf(org, pick < 20 ? pick % 5 : pick % LABELS));
  }
  return [...chosen].sort((a, b) => a - b);
}

/** The folded words of a text, as the store keeps them next to a searchable field (search-sql.ts). */
function wordsOf(text, postgres) {
  if (text === null) return null;
  const unique = [...new Set(lib.searchWords(text))];
  return postgres ? unique.map((w) => `'${w}'`).join(' ') : unique.map((w) => ` ${w}`).join('');
}

// ---- the API ----

function apiOn(store) {
  return lib.createApi({
    resources: lib.resources,
    store,
    secret: 'tracker scale bench, 16+ characters',
    authenticate: lib.bearerJwt({ secret: SECRET, principal: lib.trackerPrincipal }),
    tenancy: { field: 'orgId', of: (principal) => principal.org },
  });
}

const tokens = await Promise.all(
  Array.from({ length: ORGS }, (_, o) =>
    new SignJWT({ org: o + 1, role: 'member' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userOf(o + 1, 1)))
      .sign(new TextEncoder().encode(SECRET)),
  ),
);

// ---- loading ----

const BATCH = 10_000;

/** `createdAt` and `updatedAt` of a user or a project. */
const stamps = () => ({ createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' });

/** The users, projects and labels of every organization, as `[table, row]`. */
function* smallRows() {
  for (let org = 1; org <= ORGS; org++) {
    for (let n = 0; n < USERS; n++) {
      const role = n === 0 ? 'admin' : 'member';
      yield ['users', { orgId: org, name: `User ${org}-${n}`, email: `user${n}@org${org}.example`, role, ...stamps() }];
    }
    for (let n = 0; n < PROJECTS; n++) yield ['projects', { orgId: org, name: `Project ${n}`, ...stamps() }];
    for (const [n, name] of LABEL_NAMES.entries())
      yield ['labels', { orgId: org, name, color: `#${String(n).padStart(6, '0')}` }];
  }
}

/** The INSERT of one row of `table` (`$n` or `?` placeholders). */
function insertSql(table, row, postgres) {
  const columns = Object.keys(row);
  const marks = columns.map((_, n) => (postgres ? `$${n + 1}` : '?'));
  return `insert into ${PREFIX}${table} (${columns.map((c) => `"${c}"`).join(', ')}) values (${marks.join(', ')})`;
}

async function loadPostgres() {
  const pool = await benchPostgresPool(args['pg-url']);
  const { db, capture } = recordingKysely(new PostgresDialect({ pool }));
  const count = async () => {
    try {
      return (await sql.raw(`select count(*)::int as n from ${PREFIX}issues`).execute(db)).rows[0].n;
    } catch {
      return -1;
    }
  };
  if (args.reload || (await count()) !== ISSUES) {
    for (const table of TABLES) await sql.raw(`drop table if exists ${PREFIX}${table} cascade`).execute(db);
    const store = lib.sqlStore(db, { tablePrefix: PREFIX });
    await apiOn(store).ready();
    const started = performance.now();
    for (const [table, row] of smallRows()) await pool.query(insertSql(table, row, true), Object.values(row));
    const columns = [
      ['orgId', 'int'],
      ['projectId', 'int'],
      ['title', 'text'],
      ['title__words', 'tsvector'],
      ['body', 'text'],
      ['body__words', 'tsvector'],
      ['status', 'text'],
      ['priority', 'int'],
      ['assigneeId', 'int'],
      ['dueDate', 'date'],
      ['estimate', 'numeric'],
      ['archivedAt', 'timestamptz'],
      ['createdAt', 'timestamptz'],
      ['updatedAt', 'timestamptz'],
    ];
    const list = columns.map(([c]) => `"${c}"`).join(', ');
    const unnest = columns.map(([, t], n) => `$${n + 1}::${t === 'tsvector' ? 'text' : t}[]`).join(', ');
    const select = columns.map(([c, t]) => (t === 'tsvector' ? `"${c}"::tsvector` : `"${c}"`)).join(', ');
    await loadInBatches('PostgreSQL issues', ISSUES, BATCH, async (from, to) => {
      const arrays = columns.map(() => []);
      const issueIds = [];
      const labelIds = [];
      const labelOrgs = [];
      const labelArchives = [];
      for (let i = from; i < to; i++) {
        const row = issue(i);
        const values = {
          ...row,
          title__words: wordsOf(row.title, true),
          body__words: wordsOf(row.body, true),
          estimate: row.estimate?.toFixed(2) ?? null,
        };
        for (const [n, [c]] of columns.entries()) arrays[n].push(values[c]);
        for (const label of labelsOf(i)) {
          // Each join row with its issue's tenant and archive, as the store keeps them (ddl/join-copies.ts).
          issueIds.push(i + 1);
          labelIds.push(label);
          labelOrgs.push(row.orgId);
          labelArchives.push(row.archivedAt);
        }
      }
      await pool.query(
        `insert into ${PREFIX}issues (${list}) select ${select} from unnest(${unnest}) as t(${list})`,
        arrays,
      );
      await pool.query(
        `insert into ${PREFIX}issue_labels ("issueId", "labelId", "orgId", "archivedAt") select * from unnest($1::int[], $2::int[], $3::int[], $4::timestamptz[])`,
        [issueIds, labelIds, labelOrgs, labelArchives],
      );
    });
    await sql.raw('vacuum analyze').execute(db);
    console.log(`PostgreSQL loaded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  await keepVisible(db);
  const url = new URL(args['pg-url']);
  url.pathname = `/${BENCH_DATABASE}`;
  return {
    label: 'PostgreSQL 15',
    api: apiOn(lib.sqlStore(url.href, { tablePrefix: PREFIX })),
    recorded: apiOn(lib.sqlStore(db, { tablePrefix: PREFIX })),
    capture,
    explain: (query) => explainPostgres(db, query),
    close: () => db.destroy(),
  };
}

/**
 * Vacuums the tables again when most of their pages are not marked all-visible (a `vacuum` that
 * ran while another transaction of the server was open, a replica's feedback included, could not
 * mark them): an index-only scan then reads every row's page as well, and the figures would be
 * those of a table just loaded, not of one in service.
 */
async function keepVisible(db) {
  const visible = async () =>
    (
      await sql
        .raw(
          `select coalesce(min(relallvisible::float / nullif(relpages, 0)), 1) as share from pg_class where relname in ('${PREFIX}issues', '${PREFIX}issue_labels')`,
        )
        .execute(db)
    ).rows[0].share;
  if ((await visible()) > 0.95) return;
  await sql.raw('vacuum analyze').execute(db);
  const share = await visible();
  if (share <= 0.95)
    console.log(
      `PostgreSQL: only ${(share * 100).toFixed(0)}% of the pages all-visible after a vacuum (a transaction left open?)`,
    );
}

async function loadSqlite() {
  if (args.reload) for (const suffix of ['', '-wal', '-shm']) rmSync(`${args.sqlite}${suffix}`, { force: true });
  const fresh = !existsSync(args.sqlite);
  const file = new Database(args.sqlite);
  file.pragma('journal_mode = WAL');
  const { db, capture } = recordingKysely(new SqliteDialect({ database: file }));
  const store = lib.sqlStore(db, { tablePrefix: PREFIX });
  const api = apiOn(store);
  await api.ready();
  const count = file.prepare(`select count(*) as n from ${PREFIX}issues`).get().n;
  if (fresh || count !== ISSUES) {
    if (count > 0) throw new Error(`${args.sqlite} holds ${count} issues: run with --reload`);
    const started = performance.now();
    file.pragma('synchronous = OFF'); // loading only
    file.transaction(() => {
      for (const [table, row] of smallRows()) file.prepare(insertSql(table, row, false)).run(...Object.values(row));
    })();
    const issueInsert = file.prepare(
      `insert into ${PREFIX}issues ("orgId", "projectId", "title", "title__words", "body", "body__words", "status", "priority", "assigneeId", "dueDate", "estimate", "archivedAt", "createdAt", "updatedAt") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const labelInsert = file.prepare(
      `insert into ${PREFIX}issue_labels ("issueId", "labelId", "orgId", "archivedAt") values (?, ?, ?, ?)`,
    );
    const batch = file.transaction((from, to) => {
      for (let i = from; i < to; i++) {
        const row = issue(i);
        issueInsert.run(
          row.orgId,
          row.projectId,
          row.title,
          wordsOf(row.title, false),
          row.body,
          wordsOf(row.body, false),
          row.status,
          row.priority,
          row.assigneeId,
          row.dueDate,
          sqliteDecimal(row.estimate),
          row.archivedAt && sqliteTime(row.archivedAt),
          sqliteTime(row.createdAt),
          sqliteTime(row.updatedAt),
        );
        for (const label of labelsOf(i))
          labelInsert.run(i + 1, label, row.orgId, row.archivedAt && sqliteTime(row.archivedAt));
      }
    });
    await loadInBatches('SQLite issues', ISSUES, BATCH, async (from, to) => batch(from, to));
    file.exec('analyze');
    file.pragma('synchronous = FULL');
    console.log(`SQLite loaded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  return {
    label: `SQLite ${file.prepare('select sqlite_version() as v').get().v}`,
    api: apiOn(lib.sqlStore(`sqlite:${args.sqlite}`, { tablePrefix: PREFIX })),
    recorded: api,
    capture,
    explain: (query) => explainSqlite(db, query),
    close: () => db.destroy(),
  };
}

// The SQLite store keeps a decimal scaled by 10^scale (estimate: 2 places, 12.50 is 1250) and a
// date-time as its canonical text (row-mapping.ts).
const sqliteDecimal = (value) => (value === null ? null : Math.round(value * 100));
const sqliteTime = (date) => date.toISOString();

// ---- the scenarios ----

const random = (n) => Math.floor(Math.random() * n);
/**
 * Two words of the title of a random issue of organization `org` (not among the 100 most frequent), each typed whole or
 * cut by up to two letters (at least 3 left), as someone looking for that issue types them.
 */
function twoWords(org) {
  for (;;) {
    const title = issue(random(ISSUES / ORGS) * ORGS + org - 1)
      .title.split(' ')
      .filter((w) => !COMMON.has(w));
    if (title.length < 2) continue;
    const cut = (w) => w.slice(0, Math.max(3, w.length - random(3)));
    return `${cut(title[0])} ${cut(title[1])}`;
  }
}

const scenarios = [
  {
    // What any request costs on this machine: a page of an organization's 50 labels.
    name: 'a page of 25 labels (no target: the floor)',
    limit: Number.POSITIVE_INFINITY,
    path: '/labels',
    query: () => 'per_page=25',
  },
  {
    name: 'q= two words + status + page',
    limit: 20,
    path: '/issues',
    query: (org) => `q=${encodeURIComponent(twoWords(org))}&filter[status]=open&per_page=25`,
  },
  {
    name: 'q= two of the 10 most frequent words (no target)',
    limit: Number.POSITIVE_INFINITY,
    requests: 30,
    path: '/issues',
    query: () => `q=${VOCABULARY[random(5)]}%20${VOCABULARY[5 + random(5)]}&filter[status]=open&per_page=25`,
  },
  {
    name: 'filter[labels.name]= + sort + page',
    limit: 10,
    path: '/issues',
    query: () => `filter[labels.name]=${LABEL_NAMES[random(8)]}&sort=-createdAt&per_page=25`,
  },
  {
    name: 'filter[labels.name]= a name no label has + sort + page (no target)',
    limit: Number.POSITIVE_INFINITY,
    requests: 100,
    path: '/issues',
    query: () => `filter[labels.name]=none-${random(8)}&sort=-createdAt&per_page=25`,
  },
  {
    name: 'include=labels,assignee, page of 25',
    limit: 10,
    queries: 3,
    path: '/issues',
    query: () => `include=labels,assignee&per_page=25&page=${1 + random(20)}`,
  },
  {
    // The floor of the row above: the page without its count (the issues keep theirs, keepCount,
    // so count=estimated is answered from it as count=true is).
    name: 'the same with count=false (no target)',
    limit: Number.POSITIVE_INFINITY,
    queries: 3,
    path: '/issues',
    query: () => `include=labels,assignee&per_page=25&page=${1 + random(20)}&count=false`,
  },
  {
    name: 'stats group=status,priority sum=estimate, one project',
    limit: 20,
    path: '/issues/stats',
    query: (org) => `group=status,priority&sum=estimate&filter[projectId]=${projectOf(org, random(1000))}`,
  },
  {
    name: 'relation filter through a belongs-to + page',
    limit: 10,
    path: '/issues',
    query: () => `filter[project.name]=Project ${random(PROJECTS)}&per_page=25`,
  },
];

function request(method, path, rawQuery, body, token = tokens[0]) {
  return {
    method,
    path,
    basePath: '/api',
    rawQuery,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
    },
    ...(body ? { body: Buffer.from(body) } : {}),
  };
}

async function measure(target, scenario) {
  const once = async (api = target.api) => {
    const org = 1 + random(ORGS);
    const answer = await api.handle(request('GET', scenario.path, scenario.query(org), undefined, tokens[org - 1]));
    if (answer.status !== 200) throw new Error(`${scenario.name}: ${answer.status} ${answer.body}`);
    return answer;
  };
  const requests = scenario.requests ?? REQUESTS;
  for (let i = 0; i < Math.ceil(requests / 10); i++) await once();
  const times = [];
  let empty = 0;
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    const answer = await once();
    times.push(performance.now() - started);
    if (/^\{"[a-z]+":\[\]/.test(answer.body)) empty++;
  }
  const { result, queries } = await target.capture(() => once(target.recorded));
  const plans = args.plans
    ? await Promise.all(
        queries.map(async (q) => `${q.sql}\n${JSON.stringify(q.parameters)}\n${await target.explain(q)}`),
      )
    : [];
  return { ...summarize(times), queries: queries.length, sample: result, plans, empty };
}

const loaders = { sqlite: loadSqlite, postgres: loadPostgres };
const rows = [];
for (const name of args.only.split(',')) {
  const target = await loaders[name]();
  await target.api.ready();
  await target.recorded.ready();
  const wanted = args.scenarios?.split(',');
  for (const scenario of scenarios) {
    if (wanted && !wanted.some((part) => scenario.name.includes(part))) continue;
    const result = await measure(target, scenario);
    const within =
      scenario.limit === Number.POSITIVE_INFINITY ? 'no target' : result.p99 < scenario.limit ? 'yes' : 'NO';
    rows.push({ database: target.label, scenario: scenario.name, ...result, limit: scenario.limit, within });
    console.log(
      `${target.label.padEnd(14)} ${scenario.name.padEnd(54)} p50 ${result.p50.toFixed(2).padStart(6)} ms  p99 ${result.p99
        .toFixed(2)
        .padStart(6)} ms (< ${scenario.limit}: ${within})  ${result.queries} queries${
        scenario.queries && result.queries > scenario.queries ? ` (more than ${scenario.queries}!)` : ''
      }, ${result.empty} of ${result.n} answers empty`,
    );
    for (const plan of result.plans) console.log(`\n${plan}\n`);
  }
  await target.api.close?.();
  await target.recorded.close?.();
  await target.close();
}
console.log('\n| database | request | p50 ms | p99 ms | target (p99) | store queries |');
console.log('|---|---|---|---|---|---|');
for (const row of rows)
  console.log(
    `| ${row.database} | ${row.scenario} | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} | < ${row.limit} ms: ${row.within} | ${row.queries} |`,
  );
// The slowest requests on a small machine are mostly Node's young-generation collections: say
// which the run had (docs/deployment.md, "Node's young generation and the slowest requests").
const nodeFlags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(' ')].filter(Boolean).join(' ');
console.log(`\nNode ${process.version}, ${nodeFlags || 'no flags (a young generation of up to 16 MB)'}`);
