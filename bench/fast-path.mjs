// The SQL store's fast path (packages/sql/src/execute/) in one run: two builds of @resourcery/sql,
// bundled from their sources (this checkout's and another commit's, `--before`), each on its own
// connections (the fast path: statements kept prepared, run without Kysely's layers, SQLite writes
// committed together) and on a Kysely instance the benchmark opens itself (none of it), on SQLite
// (a file, WAL, synchronous FULL) and PostgreSQL. Each build runs in a process of its own (two
// builds in one process share Kysely's and the driver's code, and each slows the other's), and the
// rounds alternate them, so the machine's noise falls on both alike; read the ratios.
// `node bench/fast-path.mjs --help`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { writeBundle } from './lib/workspace.mjs';

const HELP = `Usage: node bench/fast-path.mjs [options]

  --before REV    the other build: a commit of this repository (default HEAD~1)
  --rounds N      rounds; each runs every variant once, in a new order (default 8)
  --ops N         operations of each kind per variant and round (default 2000)
  --only LIST     sqlite,postgres (default both)
  --pg-url URL    default $PG_URL or postgres://postgres@127.0.0.1:5432/test
  --help          this text`;

const { values: args } = parseArgs({
  options: {
    before: { type: 'string', default: 'HEAD~1' },
    rounds: { type: 'string', default: '8' },
    ops: { type: 'string', default: '2000' },
    only: { type: 'string', default: 'sqlite,postgres' },
    'pg-url': { type: 'string', default: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    child: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const ROUNDS = Number(args.rounds);
const OPS = Number(args.ops);
const root = fileURLToPath(new URL('../', import.meta.url));
/** What each build's bundle exports. */
const SQL = "export { sqlStore } from '@resourcery/sql';";

const schema = {
  name: 'fast_books',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'name', type: 'string', nullable: false, maxLength: 200 },
    { name: 'year', type: 'integer', nullable: true },
  ],
  indexed: ['name', 'year'],
};

const folder = mkdtempSync(join(tmpdir(), 'resourcery-fast-path-'));
/** A store of `build`, on its own connections (`own`) or on a Kysely instance opened here. */
function openStore(build, database, own, label) {
  if (database === 'sqlite') {
    const file = join(folder, `${label}.sqlite`);
    if (own) return build.sqlStore(`sqlite:${file}`, { tablePrefix: `${label}_` });
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    return build.sqlStore(new Kysely({ dialect: new SqliteDialect({ database: db }) }), { tablePrefix: `${label}_` });
  }
  if (own) return build.sqlStore(args['pg-url'], { tablePrefix: `${label}_` });
  const pool = new pg.Pool({ connectionString: args['pg-url'], max: 10 });
  return build.sqlStore(new Kysely({ dialect: new PostgresDialect({ pool }) }), { tablePrefix: `${label}_` });
}

const KINDS = {
  /** A show by id, one after the other. */
  find: async (books, ids) => {
    for (let i = 0; i < OPS; i++) await books.find(ids[i % ids.length], []);
  },
  /** A counted page of 20, filtered on a year, one after the other. */
  page: async (books) => {
    for (let i = 0; i < OPS / 4; i++) {
      await books.list({
        where: [{ field: 'year', values: [1900 + (i % 100)] }],
        order: [{ field: 'id', direction: 'asc' }],
        limit: 20,
        offset: 0,
        count: true,
      });
    }
  },
  /** Creates, 50 at a time (as concurrent requests send them). */
  create: async (books) => {
    for (let i = 0; i < OPS / 4; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) => books.create({ name: `Book ${i + j}`, year: 1900 + ((i + j) % 100) })),
      );
    }
  },
};
const opsOf = { find: OPS, page: OPS / 4, create: OPS / 4 };

/** In a child process: every variant of one build, once, after a round not timed; prints the times. */
async function runChild(bundle) {
  const build = await import(pathToFileURL(bundle).href);
  const times = {};
  for (const database of args.only.split(',')) {
    for (const own of [true, false]) {
      const label = `fp${process.pid}_${own ? 'own' : 'app'}`;
      const store = openStore(build, database, own, label);
      await store.init([schema]);
      const books = store.collection(schema);
      const ids = [];
      for (let i = 0; i < 200; i++) ids.push((await books.create({ name: `Seed ${i}`, year: 1900 + (i % 100) })).id);
      for (const [kind, run] of Object.entries(KINDS)) {
        await run(books, ids); // warms the JIT and the caches up
        const started = performance.now();
        await run(books, ids);
        times[`${database} ${own ? 'own' : 'app'} ${kind}`] = performance.now() - started;
      }
      if (database === 'postgres') await store.db.schema.dropTable(`${label}_${schema.name}`).ifExists().execute();
      await store.close();
      if (!own) await store.db.destroy().catch(() => {});
    }
  }
  rmSync(folder, { recursive: true, force: true });
  console.log(JSON.stringify(times));
}

if (args.child) {
  await runChild(args.child);
  process.exit(0);
}

const rev = execFileSync('git', ['rev-parse', '--short', args.before], { cwd: root, encoding: 'utf8' }).trim();
const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
const beforeTree = mkdtempSync(join(tmpdir(), 'resourcery-before-'));
execFileSync('git', ['worktree', 'add', '--detach', beforeTree, rev], { cwd: root, stdio: 'ignore' });
const bundles = {};
try {
  bundles.before = await writeBundle(SQL, { source: true, name: 'fast-path-before', checkout: beforeTree });
} finally {
  execFileSync('git', ['worktree', 'remove', '--force', beforeTree], { cwd: root, stdio: 'ignore' });
}
bundles.after = await writeBundle(SQL, { source: true, name: 'fast-path-after' });

/** Each run's ms per build and `<database> <own|app> <kind>`. */
const runs = { before: {}, after: {} };
const forwarded = ['--only', args.only, '--ops', args.ops, '--pg-url', args['pg-url']];
for (let round = 0; round < ROUNDS; round++) {
  const order = Math.random() < 0.5 ? ['before', 'after'] : ['after', 'before'];
  for (const name of order) {
    const child = spawnSync(
      process.execPath,
      [fileURLToPath(import.meta.url), '--child', bundles[name], ...forwarded],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    if (child.status !== 0) throw new Error(`the ${name} build's run failed`);
    for (const [key, ms] of Object.entries(JSON.parse(child.stdout.trim().split('\n').at(-1)))) {
      runs[name][key] = [...(runs[name][key] ?? []), ms];
    }
  }
  process.stdout.write(`round ${round + 1}/${ROUNDS}\r`);
}
for (const file of Object.values(bundles)) rmSync(file, { force: true });
rmSync(folder, { recursive: true, force: true });

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const rate = (name, database, own, kind) => (opsOf[kind] / median(runs[name][`${database} ${own} ${kind}`])) * 1000;

console.log(
  `\n@resourcery/sql ${rev} (before) against ${head} and its working tree (after); ${ROUNDS} rounds, medians\n`,
);
console.log(
  '| database | operation | before: own / app (ops/s) | after: own / app (ops/s) | after ÷ before (own) | fast path saving, before · after (own ÷ app) |',
);
console.log(
  '| -------- | --------- | ------------------------- | ------------------------ | -------------------- | -------------------------------------------- |',
);
for (const database of args.only.split(',')) {
  for (const kind of Object.keys(KINDS)) {
    const [bo, ba, ao, aa] = [
      ['before', 'own'],
      ['before', 'app'],
      ['after', 'own'],
      ['after', 'app'],
    ].map(([name, own]) => rate(name, database, own, kind));
    const f = (n) => n.toFixed(0);
    console.log(
      `| ${database} | ${kind} | ${f(bo)} / ${f(ba)} | ${f(ao)} / ${f(aa)} | ${(ao / bo).toFixed(2)} | ${(bo / ba).toFixed(2)} · ${(ao / aa).toFixed(2)} |`,
    );
  }
}
