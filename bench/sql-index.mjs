// SQL index benchmark: loads 1,000,000 books into PostgreSQL and SQLite through @resourcery/sql's
// own tables, then times index queries (filter + sort + page, with the count for X-Total-Count)
// through the store, and prints each query's plan. Needs the built package: `npm run build`.
// `node bench/sql-index.mjs --help` lists the options; results go to docs/performance.md by hand.
import { existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sqlStore } from '@resourcery/sql';
import Database from 'better-sqlite3';
import { PostgresDialect, SqliteDialect, sql } from 'kysely';
import {
  benchPostgresPool,
  explainPostgres,
  explainSqlite,
  loadInBatches,
  percentile,
  recordingKysely,
} from './lib/sql-bench.mjs';

const HELP = `Usage: node bench/sql-index.mjs [options]

  --books N        books to load (default 1000000)
  --queries N      timed queries per scenario, after 10% untimed warm-up (default 1000)
  --only A,B       databases: sqlite, postgres (default both)
  --pg-url URL     server to use (default $PG_URL or postgres://postgres@127.0.0.1:5432/test); the
                   benchmark creates and keeps its own database, resourcery_bench, on it
  --sqlite FILE    SQLite file (default <tmpdir>/resourcery-bench.sqlite, kept for reruns)
  --reload         drop and reload the data even if the right number of books is there
  --help           this text`;

const { values: args } = parseArgs({
  options: {
    books: { type: 'string', default: '1000000' },
    queries: { type: 'string', default: '1000' },
    only: { type: 'string', default: 'sqlite,postgres' },
    'pg-url': { type: 'string', default: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    sqlite: { type: 'string', default: join(os.tmpdir(), 'resourcery-bench.sqlite') },
    reload: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const BOOKS = Number(args.books);
const QUERIES = Number(args.queries);
const AUTHORS = 1000;
const BATCH = 20_000;

/** The example's books: `name` and `author` strings of at most 500 characters, both indexed. */
const schema = {
  name: 'books',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'name', type: 'string', nullable: false, maxLength: 500 },
    { name: 'author', type: 'string', nullable: false, maxLength: 500 },
  ],
  indexed: ['name', 'author'],
};

/** Book `i`: a unique title in shuffled order (7919 is prime to 10^6) and one of 1000 authors. */
function book(i) {
  return { name: `Book ${String((i * 7919) % BOOKS).padStart(7, '0')}`, author: `Author ${(i * 31) % AUTHORS}` };
}

const author = () => `Author ${Math.floor(Math.random() * AUTHORS)}`;
const page = (n) => ({ limit: 25, offset: (n - 1) * 25, count: true });
/** The requests timed, as the core turns them into store queries. */
const scenarios = [
  {
    name: 'filter + default sort + page',
    request: 'filter[author]=Author N&page=3',
    query: () => ({
      where: [{ field: 'author', values: [author()] }],
      order: [{ field: 'id', direction: 'desc' }],
      ...page(3),
    }),
  },
  {
    name: 'filter + sort + page',
    request: 'filter[author]=Author N&sort=name&page=3',
    query: () => ({
      where: [{ field: 'author', values: [author()] }],
      order: [
        { field: 'name', direction: 'asc' },
        { field: 'id', direction: 'asc' },
      ],
      ...page(3),
    }),
  },
  {
    name: 'sort + page, no filter',
    request: 'sort=-name&page=N (N < 100)',
    query: () => ({
      where: [],
      order: [
        { field: 'name', direction: 'desc' },
        { field: 'id', direction: 'asc' },
      ],
      ...page(1 + Math.floor(Math.random() * 100)),
    }),
  },
];

async function loadPostgres() {
  const pool = await benchPostgresPool(args['pg-url']);
  const { db, capture } = recordingKysely(new PostgresDialect({ pool }));
  if (args.reload) await sql`drop table if exists books`.execute(db);
  const store = sqlStore(db);
  const books = store.collection(schema);
  await store.init([schema]);
  const { rows } = await sql`select count(*)::int as n from books`.execute(db);
  if (rows[0].n !== BOOKS) {
    await sql`truncate books restart identity`.execute(db);
    await load('PostgreSQL', async (from, to) => {
      const names = [];
      const authors = [];
      for (let i = from; i < to; i++) ({ name: names[names.length], author: authors[authors.length] } = book(i));
      await pool.query('insert into books (name, author) select * from unnest($1::text[], $2::text[])', [
        names,
        authors,
      ]);
    });
    await sql`vacuum analyze books`.execute(db);
  }
  const explain = (query) => explainPostgres(db, query);
  return { label: 'PostgreSQL 15', books, capture, explain, close: () => db.destroy() };
}

async function loadSqlite() {
  if (args.reload) for (const suffix of ['', '-wal', '-shm']) rmSync(`${args.sqlite}${suffix}`, { force: true });
  const fresh = !existsSync(args.sqlite);
  const file = new Database(args.sqlite);
  file.pragma('journal_mode = WAL');
  const { db, capture } = recordingKysely(new SqliteDialect({ database: file }));
  const store = sqlStore(db);
  const books = store.collection(schema);
  await store.init([schema]);
  const count = file.prepare('select count(*) as n from books').get().n;
  if (fresh || count !== BOOKS) {
    file.exec('delete from books; delete from sqlite_sequence');
    file.pragma('synchronous = OFF'); // loading only; the store itself writes with synchronous = FULL
    const insert = file.prepare('insert into books (name, author) values (?, ?)');
    const batch = file.transaction((from, to) => {
      for (let i = from; i < to; i++) {
        const { name, author: by } = book(i);
        insert.run(name, by);
      }
    });
    await load('SQLite', async (from, to) => batch(from, to));
    file.exec('analyze');
    file.pragma('synchronous = FULL');
  }
  const explain = (query) => explainSqlite(db, query);
  return {
    label: `SQLite ${file.prepare('select sqlite_version() as v').get().v}`,
    books,
    capture,
    explain,
    close: () => db.destroy(),
  };
}

const load = (label, insertRange) => loadInBatches(`${label} books`, BOOKS, BATCH, insertRange);

async function measure(target, scenario) {
  for (let i = 0; i < Math.ceil(QUERIES / 10); i++) await target.books.list(scenario.query());
  const times = [];
  for (let i = 0; i < QUERIES; i++) {
    const started = performance.now();
    const query = scenario.query();
    const result = await target.books.list(query);
    times.push(performance.now() - started);
    const expected = Math.min(query.limit, Math.max(0, (result.total ?? 0) - query.offset));
    if (result.total === undefined || result.records.length !== expected)
      throw new Error(`${scenario.name}: wrong answer`);
  }
  times.sort((a, b) => a - b);
  // The plans of one more run: its page query and its count query.
  const { queries } = await target.capture(() => target.books.list(scenario.query()));
  const [query, count] = queries;
  const plan = `${await target.explain(query)}\n\n${await target.explain(count)}`;
  return { p50: percentile(times, 50), p99: percentile(times, 99), plan, sql: `${query.sql}\n${count.sql}` };
}

const loaders = { sqlite: loadSqlite, postgres: loadPostgres };
const report = [];
for (const name of args.only.split(',')) {
  const target = await loaders[name]();
  for (const scenario of scenarios) {
    const result = await measure(target, scenario);
    report.push({ database: target.label, scenario, ...result });
    console.log(
      `${target.label.padEnd(14)} ${scenario.name.padEnd(30)} p50 ${result.p50.toFixed(2).padStart(7)} ms   p99 ${result.p99.toFixed(2).padStart(7)} ms`,
    );
  }
  await target.close();
}

console.log(`\n| database | scenario | request | p50 (ms) | p99 (ms) |\n| --- | --- | --- | ---: | ---: |`);
for (const row of report) {
  console.log(
    `| ${row.database} | ${row.scenario.name} | \`${row.scenario.request}\` | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} |`,
  );
}
for (const row of report)
  console.log(
    `\n${row.database}, ${row.scenario.name}:\n\n\`\`\`sql\n${row.sql}\n\`\`\`\n\n\`\`\`\n${row.plan}\n\`\`\``,
  );
console.log(
  `\n${BOOKS.toLocaleString('en')} books, ${QUERIES} timed queries per scenario, Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model})`,
);
