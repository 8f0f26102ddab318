// The has-many include's store query (`ListQuery.perGroup`), timed on each SQL database: a page of
// 25 books, one of which has 40,000 reviews and the others 20 each, and the reviews of the
// page, at most 100 per book, in id order (what `GET /api/books?include=reviews` asks the store).
// The time should follow what is returned (580 records), not the 40,480 reviews of the page.
//   node bench/include-per-group.mjs [--only sqlite,postgres,mariadb] [--queries 50] [--source] [--explain]
// `--source` runs the packages from their sources (no build); `--explain` prints the statement
// and its plan (PostgreSQL `EXPLAIN ANALYZE`, MariaDB `ANALYZE`, SQLite `EXPLAIN QUERY PLAN`).
// PG_URL and MYSQL_URL name the servers (their database is used; the benchmark's tables are
// `bench_pg_books` and `bench_pg_reviews`, dropped with --drop). A plain page of as many
// records (`limit`, no `perGroup`) is timed beside it: the floor. Results: stdout;
// docs/performance.md by hand.
import { rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { CompiledQuery, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { explainPostgres, explainSqlite, percentile, recordingKysely } from './lib/sql-bench.mjs';
import { importBundle } from './lib/workspace.mjs';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'sqlite,postgres,mariadb' },
    queries: { type: 'string', default: '50' },
    reviews: { type: 'string', default: '40000' },
    source: { type: 'boolean', default: false },
    drop: { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
  },
});
const QUERIES = Number(args.queries);
const BIG = Number(args.reviews);
const BOOKS = 25;
const SMALL = 20;
const CAP = 100;

const { sqlStore } = await importBundle(`export { sqlStore } from '@resourcery/sql';`, {
  source: args.source,
  name: 'include-per-group',
});

const books = {
  name: 'bench_pg_books',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'title', type: 'string', nullable: false, maxLength: 200 },
  ],
  indexed: [],
};
const reviews = {
  name: 'bench_pg_reviews',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'bookId', type: 'integer', nullable: false },
    { name: 'rating', type: 'integer', nullable: false },
    { name: 'body', type: 'string', nullable: true, maxLength: 200 },
  ],
  indexed: ['bookId', 'rating'],
  references: [{ field: 'bookId', collection: 'bench_pg_books', onDelete: 'cascade' }],
};

const TARGETS = {
  sqlite: () => join(os.tmpdir(), 'resourcery-include-per-group.sqlite'),
  postgres: () => process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  mariadb: () => process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test',
};

/** Fills the tables unless they hold the right rows already: book 1 has BIG reviews, the others SMALL. */
async function load(store) {
  const { db } = store;
  const count = await db
    .selectFrom('bench_pg_reviews')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  if (Number(count.n) === BIG + (BOOKS - 1) * SMALL) return;
  await db.deleteFrom('bench_pg_reviews').execute();
  await db.deleteFrom('bench_pg_books').execute();
  const bookRows = Array.from({ length: BOOKS }, (_, i) => ({ title: `Book ${i + 1}` }));
  await db.insertInto('bench_pg_books').values(bookRows).execute();
  const ids = (await db.selectFrom('bench_pg_books').select('id').orderBy('id').execute()).map((row) => row.id);
  const rows = [];
  // Interleaved, as reviews arrive: the big book's reviews are spread over the whole table.
  for (let i = 0; i < BIG; i++) {
    rows.push({ bookId: ids[0], rating: (i % 5) + 1, body: `Review ${i}` });
    if (i % Math.floor(BIG / SMALL) === 0) {
      for (const bookId of ids.slice(1)) rows.push({ bookId, rating: 3, body: null });
    }
  }
  for (let at = 0; at < rows.length; at += 2000) {
    await db
      .insertInto('bench_pg_reviews')
      .values(rows.slice(at, at + 2000))
      .execute();
  }
}

/** The statement the per-group list sends, and its plan, through a Kysely instance that records it. */
async function explain(name, location, query) {
  const dialect =
    name === 'sqlite'
      ? new SqliteDialect({ database: new Database(location) })
      : name === 'postgres'
        ? new PostgresDialect({ pool: new pg.Pool({ connectionString: location, max: 1 }) })
        : new MysqlDialect({
            pool: createPool({ uri: location, connectionLimit: 1, dateStrings: true, jsonStrings: true }),
          });
  const { db, capture } = recordingKysely(dialect);
  const store = sqlStore(db);
  try {
    const { queries } = await capture(() => store.collection(reviews).list(query));
    const statement = queries.at(-1);
    console.log(`\n${name}:\n${statement.sql}\n`);
    if (name === 'sqlite') console.log(await explainSqlite(db, statement));
    else if (name === 'postgres') console.log(await explainPostgres(db, statement));
    else {
      const { rows } = await db.executeQuery(CompiledQuery.raw(`analyze ${statement.sql}`, [...statement.parameters]));
      for (const row of rows)
        console.log(`${row.select_type} ${row.table} ${row.type} key=${row.key} rows=${row.rows} r_rows=${row.r_rows}`);
    }
  } finally {
    await db.destroy();
  }
}

/** Median and 95th percentile of `QUERIES` runs of `run`, after a tenth as many untimed. */
async function timed(run) {
  for (let i = 0; i < Math.ceil(QUERIES / 10); i++) await run();
  const times = [];
  for (let i = 0; i < QUERIES; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

async function bench(name) {
  const location = TARGETS[name]();
  const store = sqlStore(name === 'sqlite' ? `sqlite:${location}` : location);
  try {
    const collections = [store.collection(books), store.collection(reviews)];
    await store.init([books, reviews]);
    await load(store);
    // Fresh statistics, as autovacuum keeps them: without them PostgreSQL may plan for the average book.
    if (name === 'postgres') await store.db.executeQuery(CompiledQuery.raw('analyze bench_pg_reviews'));
    const ids = (await store.db.selectFrom('bench_pg_books').select('id').orderBy('id').execute()).map((r) => r.id);
    const query = {
      where: [{ field: 'bookId', values: ids }],
      order: [{ field: 'id', direction: 'asc' }],
      limit: ids.length * CAP,
      offset: 0,
      count: false,
      perGroup: { field: 'bookId', limit: CAP },
    };
    const list = collections[1];
    const first = await list.list(query);
    const expected = CAP + (BOOKS - 1) * SMALL;
    if (first.records.length !== expected) {
      throw new Error(`${name}: ${first.records.length} records, expected ${expected}`);
    }
    if (args.explain) await explain(name, location, query);
    const { perGroup: _, ...plain } = { ...query, limit: expected };
    return {
      name,
      records: expected,
      perGroup: await timed(() => list.list(query)),
      plain: await timed(() => list.list(plain)),
    };
  } finally {
    if (args.drop) {
      await store.db.schema.dropTable('bench_pg_reviews').ifExists().execute();
      await store.db.schema.dropTable('bench_pg_books').ifExists().execute();
    }
    await store.close();
    if (args.drop && name === 'sqlite') rmSync(location, { force: true });
  }
}

console.log(`${BOOKS} books (one with ${BIG} reviews, the others ${SMALL}), at most ${CAP} reviews per book`);
const rows = [];
for (const name of args.only.split(',')) rows.push(await bench(name));
console.log('\n| database | records | per group p50 ms | p95 ms | plain page of as many, p50 ms | p95 ms |');
console.log('| -------- | ------: | ---------------: | -----: | ----------------------------: | -----: |');
for (const { name, records, perGroup, plain } of rows) {
  const ms = (value) => value.toFixed(2);
  console.log(
    `| ${name} | ${records} | ${ms(perGroup.p50)} | ${ms(perGroup.p95)} | ${ms(plain.p50)} | ${ms(plain.p95)} |`,
  );
}
