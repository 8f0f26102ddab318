// SQL query-language benchmark (issue #12): the library example's authors and books (50,000 and
// 1,000,000 by default) in PostgreSQL and SQLite, in the tables @resourcery/sql creates for them
// (foreign key, its index, the (field, id) index of every filterable or sortable field), then
// operator filters, a relation filter and deep pages timed twice: through the store (the exact
// ListQuery the core sends for the request, captured from the core itself) and end to end
// through `createApi(...).handle()`. Every scenario is checked against the generated data
// before it is timed, and each statement's plan is printed.
//   node bench/sql-query.mjs --help
// Results: stdout (markdown) and bench/results/sql-query-latest.json; docs/performance.md by hand.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { PostgresDialect, SqliteDialect, sql } from 'kysely';
import {
  benchPostgresPool,
  cpuClock,
  explainPostgres,
  explainSqlite,
  loadInBatches,
  recordingKysely,
  summarize,
} from './lib/sql-bench.mjs';
import { importBundle } from './lib/workspace.mjs';

const HELP = `Usage: node bench/sql-query.mjs [options]

  --books N        books to load (default 1000000)
  --authors N      authors to load (default 50000)
  --queries N      timed queries per scenario and layer, after 10% untimed warm-up (default 1000)
  --budget S       seconds a scenario may take per layer: a slower one stops with fewer queries
                   (at least 10; default 60)
  --only A,B       databases: sqlite, postgres (default both)
  --scenarios A,B  scenario ids (default all; see the table it prints)
  --layers A,B     store (collection.list), http (api.handle) (default both)
  --pg-url URL     server to use (default $PG_URL or postgres://postgres@127.0.0.1:5432/test); the
                   benchmark creates and keeps its own database, resourcery_bench, on it
  --sqlite FILE    SQLite file (default <tmpdir>/resourcery-query-bench.sqlite, kept for reruns)
  --reload         drop and reload the data even if the right number of rows is there
  --source         use @resourcery/* from packages/*/src (bundled with esbuild) instead of dist/
  --variants       also time hand-written SQL alternatives to the store's (EXISTS, id desc
                   tie-breaker, a composite index (authorId, year DESC, id) made for the time of it):
                   what would fix a missed target
  --declared-index the books resource declares indexes: [['authorId', '-year', 'id']] (the store's
                   own composite index; made on tables loaded without it, dropped when not given)
  --help           this text`;

const { values: args } = parseArgs({
  options: {
    books: { type: 'string', default: '1000000' },
    authors: { type: 'string', default: '50000' },
    queries: { type: 'string', default: '1000' },
    budget: { type: 'string', default: '60' },
    only: { type: 'string', default: 'sqlite,postgres' },
    scenarios: { type: 'string' },
    layers: { type: 'string', default: 'store,http' },
    'pg-url': { type: 'string', default: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    sqlite: { type: 'string', default: join(os.tmpdir(), 'resourcery-query-bench.sqlite') },
    reload: { type: 'boolean', default: false },
    source: { type: 'boolean', default: false },
    variants: { type: 'boolean', default: false },
    'declared-index': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const BOOKS = Number(args.books);
const AUTHORS = Number(args.authors);
const QUERIES = Number(args.queries);
const WARM_UP = Math.ceil(QUERIES / 10);
const BUDGET = Number(args.budget) * 1000;
const LAYERS = args.layers.split(',');
const BATCH = 20_000;
const PREFIX = 'library_';
/** The composite index `(authorId, year DESC, id)` --variants makes for the time of its run. */
const COMPOSITE = `${PREFIX}books_authorId_year_idx`;
/** The same index as the store names it when the resource declares it (`--declared-index`). */
const DECLARED = `${PREFIX}books_authorId_year_desc_id_idx`;
const SECRET = 'resourcery-bench-cursor-secret';
const PER_PAGE = 25;
/** The deep page: 10,000 (rows 249,976 to 250,000), or the page a quarter in for fewer books. */
const DEEP_PAGE = Math.max(2, Math.min(10_000, Math.floor(BOOKS / 4 / PER_PAGE)));
/** The deep page starts after this many records. */
const DEEP = (DEEP_PAGE - 1) * PER_PAGE;
const deepName = DEEP_PAGE.toLocaleString('en');

// The library's packages and models (examples/library/src/models.ts), built or from sources.
const lib = await importBundle(
  `import 'reflect-metadata';
  export { belongsTo, createApi, defineResource, hasMany } from '@resourcery/core';
  export { sqlStore } from '@resourcery/sql';
  export { Author, Book } from './examples/library/src/models.ts';
  export { Keys } from './packages/core/src/http/keys.ts';
  export { decodeCursor, encodeCursor } from './packages/core/src/resource/cursor.ts';`,
  { source: args.source, name: 'sql-query' },
);

/**
 * The library's authors and books (CONTRACT part 3) as examples/library declares them, with the
 * fields a large table lets clients filter and sort on: each becomes an index `(field, id)`;
 * `authorId` is also the foreign key of `book.author` (the store indexes it anyway). `title`
 * takes `eq` and `prefix` only, which an index answers.
 */
function libraryResources(pagination) {
  const { Author, Book, belongsTo, defineResource, hasMany } = lib;
  const authors = defineResource({
    name: 'author',
    model: Author,
    timestamps: true,
    relations: { books: hasMany(Book, { foreignKey: 'authorId' }) },
    fields: { filter: ['name', 'country'], sort: ['name'] },
  });
  const books = defineResource({
    name: 'book',
    model: Book,
    timestamps: true,
    unique: ['isbn'],
    pagination,
    relations: { author: belongsTo(Author, { foreignKey: 'authorId' }) },
    ...(args['declared-index'] ? { indexes: [['authorId', '-year', 'id']] } : {}),
    fields: {
      filter: ['title', 'authorId', 'year', 'isbn'],
      // `id` too: the default order (`-id`) is checked against this list like a `sort=`.
      sort: ['id', 'title', 'year'],
      operators: { title: ['eq', 'prefix'] },
    },
  });
  return [authors, books];
}

// ---------------------------------------------------------------------------------------------
// The data: deterministic, the same in every database.

/** A number in [0, 1) from `i` and `salt` (a 32-bit integer hash). */
function unit(i, salt) {
  let h = Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}

/** Countries of authors, with their share in percent (null: no country). */
const COUNTRIES = [
  ['US', 30],
  ['UK', 12],
  ['FR', 8],
  ['DE', 8],
  ['JP', 6],
  ['IT', 5],
  ['ES', 5],
  ['CA', 4],
  ['IN', 4],
  ['RU', 3],
  ['BR', 3],
  ['SE', 2],
  ['NL', 2],
  ['AU', 2],
  ['IE', 2],
  ['PL', 1],
  ['MX', 1],
  ['NG', 1],
  [null, 1],
];
const EPOCH = Date.UTC(2024, 0, 1);

/** Author `n` (id `n`, from 1). */
function author(n) {
  let at = unit(n, 1) * 100;
  let country = null;
  for (const [code, share] of COUNTRIES) {
    if (at < share) {
      country = code;
      break;
    }
    at -= share;
  }
  const time = new Date(EPOCH + n * 1000).toISOString();
  return { id: n, name: `Author ${n}`, country, createdAt: time, updatedAt: time };
}

/**
 * Book `i` (id `i + 1`): a unique title in shuffled order (`Book 0007919`: 7919 is a prime, so
 * `i * 7919 mod books` is a permutation), an author chosen with a long tail (author 1 has
 * about 4,500 books of 1,000,000, most have 10 to 30), a year 1900..2024 (3% none), a unique
 * isbn, a price (5% none), a publication date in its year.
 */
function book(i) {
  const year = unit(i, 3) < 0.03 ? null : 1900 + Math.floor(unit(i, 4) * 125);
  const month = Math.floor(unit(i, 7) * 12);
  const day = 1 + Math.floor(unit(i, 8) * 28);
  const time = new Date(EPOCH + i * 1000).toISOString();
  return {
    id: i + 1,
    title: `Book ${String((i * 7919) % BOOKS).padStart(7, '0')}`,
    authorId: 1 + Math.min(AUTHORS - 1, Math.floor(AUTHORS * unit(i, 2) ** 2)),
    year,
    isbn: `978${String(i).padStart(10, '0')}`,
    price: unit(i, 5) < 0.05 ? null : (5 + Math.floor(unit(i, 6) * 9500) / 100).toFixed(2),
    publishedAt: year === null ? null : new Date(Date.UTC(year, month, day)).toISOString(),
    createdAt: time,
    updatedAt: time,
  };
}

const randomBook = () => Math.floor(Math.random() * BOOKS);

// ---------------------------------------------------------------------------------------------
// The databases: Kysely instances that show what they ran, the tables created by the store,
// and bulk loading into them (the store would create rows one by one).

async function openPostgres() {
  // One connection, kept: every statement runs in one server process, whose CPU time is read.
  const pool = await benchPostgresPool(args['pg-url'], { max: 1, idleTimeoutMillis: 0 });
  const { db, capture } = recordingKysely(new PostgresDialect({ pool }));
  const { rows } = await sql`show server_version`.execute(db);
  const backend = (await pool.query('select pg_backend_pid() as pid')).rows[0].pid;
  if (args.reload) await sql.raw(`drop table if exists ${PREFIX}books, ${PREFIX}authors cascade`).execute(db);
  return {
    kind: 'postgres',
    label: `PostgreSQL ${rows[0].server_version.split(' ')[0]}`,
    db,
    capture,
    cpu: cpuClock([backend]),
    explain: (query) => explainPostgres(db, query),
    clear: () => sql.raw(`truncate ${PREFIX}books, ${PREFIX}authors restart identity`).execute(db),
    insertAuthors: async (from, to) => {
      const rows = [];
      for (let n = from + 1; n <= to; n++) rows.push(author(n));
      await pool.query(
        `insert into ${PREFIX}authors ("name", "country", "createdAt", "updatedAt")
         select * from unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[])`,
        ['name', 'country', 'createdAt', 'updatedAt'].map((field) => rows.map((row) => row[field])),
      );
    },
    insertBooks: async (from, to) => {
      const rows = [];
      for (let i = from; i < to; i++) rows.push(book(i));
      const fields = ['title', 'authorId', 'year', 'isbn', 'price', 'publishedAt', 'createdAt', 'updatedAt'];
      await pool.query(
        `insert into ${PREFIX}books (${fields.map((field) => `"${field}"`).join(', ')})
         select * from unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::numeric[], $6::timestamptz[],
                              $7::timestamptz[], $8::timestamptz[])`,
        fields.map((field) => rows.map((row) => row[field])),
      );
    },
    analyze: () => sql.raw(`vacuum analyze ${PREFIX}authors, ${PREFIX}books`).execute(db),
    close: () => db.destroy(),
  };
}

async function openSqlite() {
  if (args.reload) for (const suffix of ['', '-wal', '-shm']) rmSync(`${args.sqlite}${suffix}`, { force: true });
  const file = new Database(args.sqlite);
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  const { db, capture } = recordingKysely(new SqliteDialect({ database: file }));
  return {
    kind: 'sqlite',
    label: `SQLite ${file.prepare('select sqlite_version() as v').get().v}`,
    db,
    capture,
    cpu: cpuClock(),
    explain: (query) => explainSqlite(db, query),
    clear: async () => {
      file.exec(`delete from ${PREFIX}books; delete from ${PREFIX}authors;`);
      file.exec(`delete from sqlite_sequence where name in ('${PREFIX}books', '${PREFIX}authors')`);
    },
    insertAuthors: async (from, to) => {
      const insert = file.prepare(
        `insert into ${PREFIX}authors ("name", "country", "createdAt", "updatedAt") values (?, ?, ?, ?)`,
      );
      file.transaction(() => {
        for (let n = from + 1; n <= to; n++) {
          const row = author(n);
          insert.run(row.name, row.country, row.createdAt, row.updatedAt);
        }
      })();
    },
    insertBooks: async (from, to) => {
      const insert = file.prepare(
        `insert into ${PREFIX}books ("title", "authorId", "year", "isbn", "price", "publishedAt", "createdAt", "updatedAt")
         values (?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      file.pragma('synchronous = OFF'); // loading only; the store itself writes with synchronous = FULL
      file.transaction(() => {
        for (let i = from; i < to; i++) {
          const row = book(i);
          // Decimals are stored scaled by 10^scale (12.50 is 1250), date-times as canonical text.
          const price = row.price === null ? null : Math.round(Number(row.price) * 100);
          insert.run(row.title, row.authorId, row.year, row.isbn, price, row.publishedAt, row.createdAt, row.updatedAt);
        }
      })();
      file.pragma('synchronous = FULL');
    },
    analyze: async () => file.exec('analyze'),
    close: () => db.destroy(),
  };
}

/**
 * The store, through which `createApi` gets its collections: remembers them by name, and while
 * `dry` is an array, `list` records the query the core sends there and answers an empty page
 * instead of asking the database (to see a request's ListQuery without running it).
 */
function observedStore(store) {
  const collections = new Map();
  const observed = {
    dry: undefined,
    collections,
    store: {
      collection(schema) {
        const real = store.collection(schema);
        collections.set(schema.name, real);
        return {
          schema: real.schema,
          list: (query) => {
            if (!observed.dry) return real.list(query);
            observed.dry.push(query);
            return Promise.resolve(query.count ? { records: [], total: 0 } : { records: [] });
          },
          find: (id, where) => real.find(id, where),
          create: (values) => real.create(values),
          update: (id, changes, where) => real.update(id, changes, where),
          destroy: (id, where) => real.destroy(id, where),
          transaction: (work) => real.transaction(work),
        };
      },
      transaction: (work) => store.transaction(work),
      init: (schemas) => store.init(schemas),
      close: () => store.close(),
    },
  };
  return observed;
}

async function prepare(target) {
  const store = observedStore(lib.sqlStore(target.db, { tablePrefix: PREFIX }));
  const apis = {};
  // Tables loaded without the declared index get it as a migration would (the store checks it is there).
  const { rows: tables } = await sql`select 1 from ${sql.id(`${PREFIX}books`)} limit 1`
    .execute(target.db)
    .catch(() => ({ rows: undefined }));
  if (args['declared-index'] && tables) {
    const year = target.kind === 'postgres' ? '"year" DESC NULLS LAST' : '"year" DESC';
    await sql
      .raw(`create index if not exists "${DECLARED}" on "${PREFIX}books" ("authorId", ${year}, "id")`)
      .execute(target.db);
  }
  if (!args['declared-index']) await sql`drop index if exists ${sql.id(DECLARED)}`.execute(target.db);
  for (const pagination of ['page', 'cursor']) {
    apis[pagination] = lib.createApi({
      resources: libraryResources(pagination),
      store: store.store,
      secret: SECRET,
    });
    await apis[pagination].ready(); // creates the tables, their indexes and the foreign key
  }
  const books = store.collections.get('books');
  const authors = store.collections.get('authors');
  // Left by an interrupted --variants run: the scenarios use the store's own indexes only.
  await sql`drop index if exists ${sql.id(COMPOSITE)}`.execute(target.db);
  const count = async (table) =>
    Number((await sql.raw(`select count(*) as n from ${PREFIX}${table}`).execute(target.db)).rows[0].n);
  if ((await count('authors')) !== AUTHORS || (await count('books')) !== BOOKS) {
    await target.clear();
    await loadInBatches(`${target.label}: authors`, AUTHORS, BATCH, target.insertAuthors);
    await loadInBatches(`${target.label}: books`, BOOKS, BATCH, target.insertBooks);
    await target.analyze();
  }
  // What was loaded around the store reads back as the store would have written it.
  for (const i of [0, 1, Math.floor(BOOKS / 2), BOOKS - 1]) {
    const expected = book(i);
    const found = await books.find(expected.id, []);
    if (JSON.stringify(found) !== JSON.stringify(expected)) {
      throw new Error(`book ${expected.id} reads back as ${JSON.stringify(found)}, not ${JSON.stringify(expected)}`);
    }
  }
  const first = await authors.find(1, []);
  if (JSON.stringify(first) !== JSON.stringify(author(1)))
    throw new Error(`author 1 reads back as ${JSON.stringify(first)}`);
  return { ...target, store, apis, books };
}

// ---------------------------------------------------------------------------------------------
// The requests: each scenario makes the parameters of one request; the core turns them into
// the ListQuery the store receives. `matches` and the order say what the answer must be.

const query = (params) =>
  Object.entries(params)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');

/** The values of the cursor pagination's position after `record` in `order`. */
const positionOf = (record, order) => order.map(({ field }) => record[field]);

/** A cursor as the core makes it (packages/core/src/resource/cursor.ts), for the row `last`. */
const keys = new lib.Keys(SECRET);
const bindingOf = (where, order) => ({ resource: 'books', where, scope: [], order });
const cursorFor = (where, order, last) => lib.encodeCursor(keys, bindingOf(where, order), last);

const deepCursors = new Map();

const ALL_SCENARIOS = [
  {
    id: 'range',
    name: 'range + equality + sort',
    shows: 'filter[year][gte]=1950&filter[year][lt]=2000&filter[authorId]=X&sort=-year',
    api: 'page',
    // X: the author of a random book, so authors with many books come up as often as they are read.
    params: () => ({
      'filter[year][gte]': '1950',
      'filter[year][lt]': '2000',
      'filter[authorId]': String(book(randomBook()).authorId),
      sort: '-year',
    }),
    matches: (params) => (row) =>
      row.year !== null && row.year >= 1950 && row.year < 2000 && row.authorId === Number(params['filter[authorId]']),
  },
  {
    id: 'range-heavy',
    name: 'the same, the author with most books',
    shows: 'filter[year][gte]=1950&filter[year][lt]=2000&filter[authorId]=1&sort=-year',
    api: 'page',
    params: () => ({ 'filter[year][gte]': '1950', 'filter[year][lt]': '2000', 'filter[authorId]': '1', sort: '-year' }),
    matches: () => (row) => row.year !== null && row.year >= 1950 && row.year < 2000 && row.authorId === 1,
  },
  {
    id: 'prefix',
    name: 'prefix + sort',
    shows: 'filter[title][prefix]=Book 01234&sort=title',
    api: 'page',
    params: () => ({ 'filter[title][prefix]': book(randomBook()).title.slice(0, 10), sort: 'title' }),
    matches: (params) => (row) => row.title.startsWith(params['filter[title][prefix]']),
  },
  {
    id: 'prefix-fields',
    name: 'prefix + sort, fields=title',
    shows: 'filter[title][prefix]=Book 01234&sort=title&fields=title',
    api: 'page',
    params: () => ({ 'filter[title][prefix]': book(randomBook()).title.slice(0, 10), sort: 'title', fields: 'title' }),
    matches: (params) => (row) => row.title.startsWith(params['filter[title][prefix]']),
  },
  {
    id: 'related',
    name: 'related attribute + sort + page',
    shows: 'filter[author.country]=UK&sort=-year&page=3',
    api: 'page',
    params: () => ({ 'filter[author.country]': 'UK', sort: '-year', page: '3' }),
    matches: () => (row) => author(row.authorId).country === 'UK',
  },
  {
    id: 'related-nocount',
    name: 'the same, count=false',
    shows: 'filter[author.country]=UK&sort=-year&page=3&count=false',
    api: 'page',
    params: () => ({ 'filter[author.country]': 'UK', sort: '-year', page: '3', count: 'false' }),
    matches: () => (row) => author(row.authorId).country === 'UK',
  },
  {
    id: 'related-title',
    name: 'related attribute + sort=title + page',
    shows: 'filter[author.country]=UK&sort=title&page=3&count=false',
    api: 'page',
    params: () => ({ 'filter[author.country]': 'UK', sort: 'title', page: '3', count: 'false' }),
    matches: () => (row) => author(row.authorId).country === 'UK',
  },
  {
    id: 'cursor-1',
    name: 'cursor, page 1',
    shows: 'per_page=25 (pagination: cursor; order -id)',
    api: 'cursor',
    params: () => ({ per_page: String(PER_PAGE) }),
  },
  {
    id: 'cursor-deep',
    name: `cursor, page ${deepName}`,
    shows: `per_page=25&after=<row ${DEEP.toLocaleString('en')}> (order -id)`,
    api: 'cursor',
    deep: 'cursor-1',
    params: () => ({ per_page: String(PER_PAGE), after: deepCursors.get('cursor-deep') }),
  },
  {
    id: 'offset-deep',
    name: `offset, page ${deepName}`,
    shows: `page=${DEEP_PAGE}&count=false (pagination: page; order -id)`,
    api: 'page',
    params: () => ({ page: String(DEEP_PAGE), count: 'false' }),
  },
  {
    id: 'cursor-title-1',
    name: 'cursor sort=title, page 1',
    shows: 'sort=title&per_page=25 (pagination: cursor)',
    api: 'cursor',
    params: () => ({ sort: 'title', per_page: String(PER_PAGE) }),
  },
  {
    id: 'cursor-title-deep',
    name: `cursor sort=title, page ${deepName}`,
    shows: `sort=title&per_page=25&after=<row ${DEEP.toLocaleString('en')}>`,
    api: 'cursor',
    deep: 'cursor-title-1',
    params: () => ({ sort: 'title', per_page: String(PER_PAGE), after: deepCursors.get('cursor-title-deep') }),
  },
  {
    id: 'cursor-year-1',
    name: 'cursor sort=-year, page 1',
    shows: 'sort=-year&per_page=25 (pagination: cursor; year nullable)',
    api: 'cursor',
    params: () => ({ sort: '-year', per_page: String(PER_PAGE) }),
  },
  {
    id: 'cursor-year-deep',
    name: `cursor sort=-year, page ${deepName}`,
    shows: `sort=-year&per_page=25&after=<row ${DEEP.toLocaleString('en')}>`,
    api: 'cursor',
    deep: 'cursor-year-1',
    params: () => ({ sort: '-year', per_page: String(PER_PAGE), after: deepCursors.get('cursor-year-deep') }),
  },
];
const scenarios = ALL_SCENARIOS.filter(
  (scenario) => !args.scenarios || args.scenarios.split(',').includes(scenario.id),
);

const request = (rawQuery) => ({
  method: 'GET',
  path: '/books',
  basePath: '/api',
  rawQuery,
  headers: { host: '127.0.0.1', accept: 'application/json' },
});

/** The ListQuery the core sends the store for these parameters (taken from the core itself). */
async function listQueryOf(target, scenario, params) {
  target.store.dry = [];
  try {
    const response = await target.apis[scenario.api].handle(request(query(params)));
    if (response.status !== 200) throw new Error(`${scenario.id}: ${response.status} ${response.body}`);
    const [listed] = target.store.dry;
    return listed;
  } finally {
    target.store.dry = undefined;
  }
}

/** Orders records as a ListQuery does: nulls first ascending and last descending. */
function comparator(order) {
  return (a, b) => {
    for (const { field, direction } of order) {
      const x = a[field];
      const y = b[field];
      if (x === y) continue;
      const before = x === null ? true : y === null ? false : x < y;
      return (before ? -1 : 1) * (direction === 'asc' ? 1 : -1);
    }
    return 0;
  };
}

let allBooks;
/** Every book, generated (for the checks only). */
const everyBook = () => {
  allBooks ??= Array.from({ length: BOOKS }, (_, i) => book(i));
  return allBooks;
};

/** The generated books matching a scenario's parameters, in the order of a ListQuery. */
function expectedRows(scenario, params, order) {
  const rows = scenario.matches ? everyBook().filter(scenario.matches(params)) : [...everyBook()];
  return rows.sort(comparator(order));
}

/**
 * Checks a scenario on one database before it is timed: the store's page and total are those
 * of the generated data, and `handle()` answers the same page. A deep cursor page first gets its
 * cursor: the position of the row before the deep page in its order, signed as the core signs cursors (checked
 * against the cursor of the core's own first page).
 */
async function check(target, scenario) {
  if (scenario.deep) {
    const base = ALL_SCENARIOS.find((other) => other.id === scenario.deep);
    const baseQuery = await listQueryOf(target, base, base.params());
    const sorted = expectedRows(base, base.params(), baseQuery.order);
    deepCursors.set(scenario.id, await cursorFor(baseQuery.where, baseQuery.order, sorted[DEEP - 1]));
    const first = await target.apis.cursor.handle(request(query(base.params())));
    const link = first.headers.link ?? first.headers.Link ?? '';
    const next = decodeURIComponent(/after=([^>&]+)>; rel="next"/.exec(link)?.[1] ?? '');
    const position = next && (await lib.decodeCursor(keys, bindingOf(baseQuery.where, baseQuery.order), next));
    const expected = positionOf(sorted[PER_PAGE - 1], baseQuery.order);
    if (!position || JSON.stringify(position.values) !== JSON.stringify(expected)) {
      throw new Error(`${scenario.id}: the core's cursors are not made as this script makes them (${link})`);
    }
  }
  const params = scenario.params();
  const listQuery = await listQueryOf(target, scenario, params);
  const sorted = expectedRows(scenario, params, listQuery.order);
  const start = scenario.deep ? DEEP : listQuery.offset;
  const expected = sorted.slice(start, start + listQuery.limit).map((row) => row.id);
  const result = await target.books.list(listQuery);
  const ids = result.records.map((record) => record.id);
  if (JSON.stringify(ids) !== JSON.stringify(expected)) {
    throw new Error(`${scenario.id}: ids ${ids.slice(0, 5)}… instead of ${expected.slice(0, 5)}…`);
  }
  if (listQuery.count && result.total !== sorted.length) {
    throw new Error(`${scenario.id}: total ${result.total} instead of ${sorted.length}`);
  }
  const response = await target.apis[scenario.api].handle(request(query(params)));
  const answered = response.status === 200 ? JSON.parse(response.body).books.map((record) => record.id) : [];
  if (JSON.stringify(answered) !== JSON.stringify(expected.slice(0, Number(params.per_page ?? PER_PAGE)))) {
    throw new Error(`${scenario.id}: handle() answered ${response.status} ${response.body.slice(0, 300)}`);
  }
  return { listQuery, total: sorted.length };
}

// ---------------------------------------------------------------------------------------------
// Timing: each layer times its scenarios in turns (one query of each, round after round), so
// that a slow moment of the shared machine slows every scenario alike.

async function time(target, layer, prepared) {
  const states = prepared.map((entry) => ({ ...entry, warm: 0, times: [], cpu: [], spent: 0 }));
  let active = states;
  while (active.length > 0) {
    for (const state of active) {
      const { scenario, requests, listQueries } = state;
      const at = (state.warm + state.times.length) % requests.length;
      const cpu = target.cpu();
      const started = performance.now();
      if (state.run) await state.run(at);
      else if (layer === 'store') {
        const result = await target.books.list(listQueries[at]);
        if (!Array.isArray(result.records)) throw new Error(`${scenario.id}: no records`);
      } else {
        const response = await target.apis[scenario.api].handle(request(requests[at]));
        if (response.status !== 200) throw new Error(`${scenario.id}: ${response.status} ${response.body}`);
      }
      const elapsed = performance.now() - started;
      const used = target.cpu() - cpu;
      state.spent += elapsed;
      // A slow scenario warms up for a quarter of its budget at most.
      if (state.warm < WARM_UP && state.spent < BUDGET / 4) state.warm++;
      else {
        state.times.push(elapsed);
        state.cpu.push(used);
      }
    }
    active = active.filter(({ times, spent }) => times.length < QUERIES && (spent < BUDGET || times.length < 10));
  }
  return new Map(states.map(({ scenario, times, cpu }) => [scenario.id, { ...summarize(times), cpu: summarize(cpu) }]));
}

/** What a plan says in a few words: the indexes read, full scans, sorts. */
function planSummary(plan) {
  const indexes = new Set();
  for (const match of plan.matchAll(
    /(?:Index Only Scan|Index Scan|Bitmap Index Scan)(?: Backward)? (?:using|on) (\S+)|USING (?:COVERING )?INDEX (\S+)|USING (INTEGER PRIMARY KEY)/g,
  )) {
    indexes.add(match[1] ?? match[2] ?? match[3]);
  }
  const notes = [];
  if (/Seq Scan/.test(plan)) notes.push('FULL SCAN');
  // SQLite's table is the b-tree of the rowid (the id): read in id order, stopping at the limit.
  if (/^\s*SCAN \S+\s*$/m.test(plan)) notes.push('table b-tree in id order');
  if (/Incremental Sort/.test(plan)) notes.push('incremental sort');
  else if (/\bSort\b/.test(plan)) notes.push('sort');
  if (/TEMP B-TREE/.test(plan)) notes.push('temp b-tree');
  if (/Hash|Semi Join|LIST SUBQUERY|CORRELATED/.test(plan)) notes.push('semi-join');
  return `${[...indexes].join(', ') || 'no index'}${notes.length ? ` (${notes.join(', ')})` : ''}`;
}

/**
 * Hand-written alternatives to the store's statements, on the same data (not what the store
 * sends): each entry runs one statement, or a scenario's own ListQueries with the composite index
 * `(authorId, year, id)` present (made here, dropped after).
 */
async function variants(target, prepared) {
  const books = sql.table(`${PREFIX}books`);
  const authors = sql.table(`${PREFIX}authors`);
  const columns = sql.raw(
    ['id', 'title', 'authorId', 'year', 'isbn', 'price', 'publishedAt', 'createdAt', 'updatedAt']
      .map((column) => `"${column}"`)
      .join(', '),
  );
  // PostgreSQL sorts nulls first descending; the store asks for them last, as SQLite does.
  const desc = sql.raw(target.kind === 'postgres' ? 'desc nulls last' : 'desc');
  const inUk = sql`"authorId" in (select "id" from ${authors} where "country" = ${'UK'})`;
  const existsUk = sql`exists (select 1 from ${authors} as "a" where "a"."id" = ${books}."authorId" and "a"."country" = ${'UK'})`;
  const page3 = sql`limit 26 offset 50`;
  const statements = [
    {
      id: 'v-related-year-iddesc',
      name: 'related, sort=-year, tie-breaker id desc',
      shows: 'authorId IN (SELECT …) ORDER BY year DESC, id DESC',
      query: sql`select ${columns} from ${books} where ${inUk} order by "year" ${desc}, "id" desc ${page3}`,
    },
    {
      id: 'v-related-year-exists-iddesc',
      name: 'the same with EXISTS',
      shows: 'EXISTS (SELECT … a.id = authorId) ORDER BY year DESC, id DESC',
      query: sql`select ${columns} from ${books} where ${existsUk} order by "year" ${desc}, "id" desc ${page3}`,
    },
    {
      id: 'v-related-title-exists',
      name: 'related, sort=title, EXISTS',
      shows: 'EXISTS (SELECT … a.id = authorId) ORDER BY title, id',
      query: sql`select ${columns} from ${books} where ${existsUk} order by "title", "id" ${page3}`,
    },
  ];
  // The deep cursor page of `sort=-year` if `year` were required and the tie-breaker followed it
  // (`id` descending): a plain keyset range on the (year, id) index.
  const deepYear = prepared.find((entry) => entry.scenario.id === 'cursor-year-deep')?.listQuery.after;
  if (deepYear && deepYear[0] !== null) {
    const [year, id] = deepYear;
    statements.push({
      id: 'v-cursor-year-deep-bound',
      name: `cursor sort=-year, page ${deepName}, non-null year, id desc`,
      shows: 'year <= y AND (year < y OR id < i) ORDER BY year DESC, id DESC',
      query: sql`select ${columns} from ${books} where "year" <= ${year} and ("year" < ${year} or ("year" = ${year} and "id" < ${id})) order by "year" ${desc}, "id" desc limit 26`,
    });
    statements.push({
      id: 'v-cursor-year-deep-row',
      name: `cursor sort=-year, page ${deepName}, non-null year, id desc, row value`,
      shows: '(year, id) < (y, i) ORDER BY year DESC, id DESC',
      query: sql`select ${columns} from ${books} where ("year", "id") < (${year}, ${id}) order by "year" ${desc}, "id" desc limit 26`,
    });
  }
  if (target.kind === 'sqlite') {
    statements.push({
      id: 'v-related-title-plus',
      name: 'related, sort=title, +authorId IN',
      shows: '+authorId IN (SELECT …) ORDER BY title, id (unary + keeps SQLite off the authorId index)',
      query: sql`select ${columns} from ${books} where +${inUk} order by "title", "id" ${page3}`,
    });
  }
  const entries = [];
  for (const { query: statement, ...scenario } of statements) {
    const compiled = statement.compile(target.db);
    const plan = await target.explain(compiled);
    entries.push({ scenario, run: () => target.db.executeQuery(compiled), plans: [{ sql: compiled.sql, plan }] });
  }
  // In the order the core asks for (`sort=-year` is `year DESC NULLS LAST, id ASC`), so that the
  // page is read from it in order, without a sort.
  await sql`create index ${sql.id(COMPOSITE)} on ${books} ("authorId", "year" ${desc}, "id")`.execute(target.db);
  await sql.raw(`analyze ${PREFIX}books`).execute(target.db);
  try {
    for (const id of ['range', 'range-heavy']) {
      const main = prepared.find((entry) => entry.scenario.id === id);
      if (!main) continue;
      const { queries } = await target.capture(() => target.books.list(main.listQuery));
      const plans = [];
      for (const statement of queries) plans.push({ sql: statement.sql, plan: await target.explain(statement) });
      entries.push({
        scenario: {
          id: `v-${id}-composite`,
          name: `${main.scenario.name}, index (authorId, year DESC, id)`,
          shows: main.scenario.shows,
        },
        run: (at) => target.books.list(main.listQueries[at]),
        requests: main.requests,
        plans,
      });
    }
    for (const entry of entries) {
      entry.requests ??= Array.from({ length: WARM_UP + QUERIES });
      console.log(`  variant ${entry.scenario.id}: ${entry.plans.map(({ plan }) => planSummary(plan)).join(' + ')}`);
    }
    const timed = await time(target, 'variants', entries);
    return entries.map(({ scenario, plans }) => ({
      database: target.label,
      scenario,
      plans,
      variants: timed.get(scenario.id),
    }));
  } finally {
    await sql`drop index if exists ${sql.id(COMPOSITE)}`.execute(target.db);
  }
}

const databases = { sqlite: openSqlite, postgres: openPostgres };
const variantRows = [];
const report = [];
const loadBefore = os.loadavg();
for (const name of args.only.split(',')) {
  const target = await prepare(await databases[name]());
  console.log(`\n${target.label}: ${AUTHORS.toLocaleString('en')} authors, ${BOOKS.toLocaleString('en')} books`);
  const prepared = [];
  for (const scenario of scenarios) {
    const { listQuery, total } = await check(target, scenario);
    const requests = [];
    const listQueries = [];
    for (let i = 0; i < WARM_UP + QUERIES; i++) {
      const params = scenario.params();
      requests.push(query(params));
      listQueries.push(await listQueryOf(target, scenario, params));
    }
    // The plans of the statements of one more list (the page, then the count if any).
    const { queries } = await target.capture(() => target.books.list(listQuery));
    const plans = [];
    for (const statement of queries) plans.push({ sql: statement.sql, plan: await target.explain(statement) });
    prepared.push({ scenario, requests, listQueries, listQuery, total, plans });
    console.log(`  checked ${scenario.id}: ${plans.map(({ plan }) => planSummary(plan)).join(' + ')}`);
  }
  allBooks = undefined;
  const timed = {};
  for (const layer of LAYERS) timed[layer] = await time(target, layer, prepared);
  for (const { scenario, listQuery, total, plans } of prepared) {
    const row = { database: target.label, scenario, listQuery, total, plans };
    for (const layer of LAYERS) row[layer] = timed[layer].get(scenario.id);
    report.push(row);
    const figures = LAYERS.map((layer) => {
      const { n, p50, p95, p99 } = row[layer];
      return `${layer} ${p50.toFixed(2)} / ${p95.toFixed(2)} / ${p99.toFixed(2)} ms (${n})`;
    });
    console.log(`  ${scenario.id.padEnd(20)} ${figures.join('   ')}`);
  }
  if (args.variants) variantRows.push(...(await variants(target, prepared)));
  await target.close();
}

// ---------------------------------------------------------------------------------------------
// The report (markdown).

const ms = (value) => (value === undefined ? '–' : value.toFixed(2));
console.log('\n| scenario | request |\n| --- | --- |');
for (const scenario of scenarios) console.log(`| ${scenario.name} | \`${scenario.shows}\` |`);
const LABELS = {
  store: '`collection.list(query)`',
  http: '`api.handle(request)`',
  variants: 'Hand-written alternatives (`--variants`; not what the store sends)',
};
function printTable(layer, rows) {
  console.log(`\n${LABELS[layer]}, wall clock, and CPU time (this process + the PostgreSQL backend), in ms:\n`);
  console.log('| database | scenario | n | p50 | p95 | p99 | CPU p50 | CPU p99 | p99 < 10 ms |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const row of rows) {
    const { n, p50, p95, p99, cpu } = row[layer];
    console.log(
      `| ${row.database} | ${row.scenario.name} | ${n} | ${ms(p50)} | ${ms(p95)} | ${ms(p99)} | ${ms(cpu.p50)} | ${ms(cpu.p99)} | ${p99 < 10 ? 'yes' : '**no**'} |`,
    );
  }
}
for (const layer of LAYERS) printTable(layer, report);
if (variantRows.length > 0) {
  console.log('\n| variant | statement |\n| --- | --- |');
  for (const { scenario } of variantRows.filter(
    (row, i, all) => all.findIndex((other) => other.scenario.id === row.scenario.id) === i,
  )) {
    console.log(`| ${scenario.name} | \`${scenario.shows}\` |`);
  }
  printTable('variants', variantRows);
}

console.log('\nDeep pages against page 1 (same run, timed in turns):\n');
for (const database of new Set(report.map((row) => row.database))) {
  const of = (id) => report.find((row) => row.database === database && row.scenario.id === id);
  for (const [deep, first] of [
    ['cursor-deep', 'cursor-1'],
    ['offset-deep', 'cursor-1'],
    ['cursor-title-deep', 'cursor-title-1'],
    ['cursor-year-deep', 'cursor-year-1'],
  ]) {
    if (!of(deep) || !of(first)) continue;
    const ratios = LAYERS.map((layer) => {
      const p50 = of(deep)[layer].p50 / of(first)[layer].p50;
      const p99 = of(deep)[layer].p99 / of(first)[layer].p99;
      return `${layer}: p50 ${p50.toFixed(2)}x, p99 ${p99.toFixed(2)}x`;
    });
    console.log(`- ${database}, ${of(deep).scenario.name} / ${of(first).scenario.name}: ${ratios.join('; ')}`);
  }
}

for (const row of [...report, ...variantRows]) {
  const matching = row.total === undefined ? '' : `, ${row.total} matching`;
  console.log(`\n${row.database}, ${row.scenario.name} (\`${row.scenario.shows}\`${matching}):\n`);
  if (row.listQuery) console.log(`ListQuery: \`${JSON.stringify(row.listQuery)}\`\n`);
  for (const { sql: text, plan } of row.plans) console.log(`\`\`\`sql\n${text}\n\`\`\`\n\n\`\`\`\n${plan}\n\`\`\`\n`);
}

const machine = `${os.cpus().length} CPUs (${os.cpus()[0]?.model}), load average ${loadBefore.map((load) => load.toFixed(1)).join(' ')} at the start, ${os
  .loadavg()
  .map((load) => load.toFixed(1))
  .join(' ')} at the end`;
console.log(
  `\n${AUTHORS.toLocaleString('en')} authors, ${BOOKS.toLocaleString('en')} books, ${QUERIES} timed queries per scenario and layer (fewer past ${args.budget} s), Node ${process.version}, ${args.source ? 'packages from src/' : 'packages from dist/'}, ${machine}`,
);
const results = join(import.meta.dirname, 'results');
mkdirSync(results, { recursive: true });
writeFileSync(
  join(results, 'sql-query-latest.json'),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      books: BOOKS,
      authors: AUTHORS,
      queries: QUERIES,
      machine,
      rows: [...report, ...variantRows].map(({ scenario, ...row }) => ({
        scenario: scenario.id,
        request: scenario.shows,
        ...row,
      })),
    },
    null,
    2,
  )}\n`,
);
