// What prepared statements save, and what PgBouncer costs, per store operation, without HTTP:
// `node bench/pooler.mjs [--books 10000] [--rounds 8] [--operations 2000] [--callers 10] [--only show,update]` (after `npm run build`;
// PgBouncer as .ci/run starts it, on 127.0.0.1:$BENCH_PGBOUNCER_PORT, default 6432).
// One seeded database (`bench_pooler`), three stores on it, each with a pool of 10: straight to
// PostgreSQL by default, straight with `?preparedStatements=false`, and through PgBouncer
// (transaction mode) with `?preparedStatements=false`. Each round runs every operation on each
// store in turn (the order flips every round), `--operations` times from 10 concurrent callers,
// and reads the CPU time it took: this process's (the store and pg), PostgreSQL's (the backends
// of bench_pooler only: the background processes also work for whatever else runs on the server)
// and PgBouncer's. CPU time per operation
// depends less on the other jobs of a shared machine than throughput does. Medians of the rounds,
// and of the per-round ratios to the default store.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { compiledResource } from '@resourcery/core/adapter';
import { sqlStore } from '@resourcery/sql';
import { books as bookResource } from '../examples/books/dist/book.js';
import { FILTER_AUTHOR, makeBooks } from './data.mjs';
import { cpuBetween, freshDatabase, postgresCpu, seedBooks } from './lib/databases.mjs';
import { median } from './lib/stats.mjs';

const { values: args } = parseArgs({
  options: {
    books: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '8' },
    operations: { type: 'string', default: '2000' },
    callers: { type: 'string', default: '10' },
    only: { type: 'string' },
  },
});
const BOOKS = Number(args.books);
const ROUNDS = Number(args.rounds);
const OPERATIONS = Number(args.operations);
const CALLERS = Number(args.callers);
const PGBOUNCER_PORT = process.env.BENCH_PGBOUNCER_PORT ?? '6432';
const PGBOUNCER_PID = process.env.BENCH_PGBOUNCER_PID ?? '/tmp/resourcery-pgbouncer/pgbouncer.pid';
const DATABASE = 'bench_pooler';
/** PostgreSQL's CPU is its backends' for bench_pooler: the WAL writer, checkpointer and autovacuum serve every database of the server. */
const BACKENDS = { backendsOnly: true };

/** PgBouncer's CPU time so far (µs), 0 when its process cannot be read. */
function pgbouncerCpu() {
  try {
    const pid = readFileSync(PGBOUNCER_PID, 'latin1').trim();
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'latin1').split(' ')[0]) / 1000;
  } catch {
    return 0;
  }
}

const randomId = () => 1 + Math.floor(Math.random() * BOOKS);
const page = (extra) => ({ where: [], order: [{ field: 'id', direction: 'desc' }], limit: 25, offset: 50, ...extra });
/** The operations of bench/scenarios.mjs, as the resource layer asks the store for them. */
const OPERATIONS_BY_NAME = {
  show: (books) => books.find(randomId(), []),
  'index page': (books) => books.list(page({ count: true })),
  'index page, count=false': (books) => books.list(page({ count: false })),
  'index filter+sort+page': (books) =>
    books.list({
      where: [{ field: 'author', values: [FILTER_AUTHOR] }],
      order: [
        { field: 'name', direction: 'desc' },
        { field: 'id', direction: 'desc' },
      ],
      limit: 20,
      offset: 0,
      count: true,
    }),
  update: (books) => books.update(randomId(), { name: 'The Dispossessed' }, []),
  create: (books) => books.create({ name: 'The Word for World Is Forest', author: 'Ursula Le Guin' }),
};

/** Runs `operation` OPERATIONS times from CALLERS callers; answers ops/s and CPU µs per operation. */
async function measure(books, operation) {
  const before = { node: process.cpuUsage(), db: postgresCpu(DATABASE, BACKENDS), pooler: pgbouncerCpu() };
  const start = process.hrtime.bigint();
  let left = OPERATIONS;
  const caller = async () => {
    while (left-- > 0) await operation(books);
  };
  await Promise.all(Array.from({ length: CALLERS }, caller));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const node = process.cpuUsage(before.node);
  return {
    opsPerSecond: OPERATIONS / seconds,
    node: (node.user + node.system) / OPERATIONS,
    db: cpuBetween(before.db, postgresCpu(DATABASE, BACKENDS)) / OPERATIONS,
    pooler: (pgbouncerCpu() - before.pooler) / OPERATIONS,
  };
}

const database = await freshDatabase('pooler', 'postgres');
const schema = compiledResource(bookResource).schema;
const setup = sqlStore(database.url);
await setup.init([schema]);
await setup.close();
await seedBooks(database, makeBooks(BOOKS));
const pooled = new URL(database.url);
pooled.port = PGBOUNCER_PORT;
pooled.searchParams.set('preparedStatements', 'false');
const unprepared = new URL(database.url);
unprepared.searchParams.set('preparedStatements', 'false');
const variants = [
  ['direct, prepared (default)', database.url],
  ['direct, preparedStatements=false', unprepared.href],
  ['PgBouncer, preparedStatements=false', pooled.href],
].map(([name, url]) => {
  const store = sqlStore(url);
  return { name, store, books: store.collection(schema) };
});

console.error(`${BOOKS} books, ${ROUNDS} rounds of ${OPERATIONS} operations per store, ${CALLERS} callers`);
const rows = [];
for (const [title, operation] of Object.entries(OPERATIONS_BY_NAME)) {
  if (args.only && !args.only.split(',').includes(title)) continue;
  for (const variant of variants) await measure(variant.books, operation); // warm-up: connections, statements
  const rounds = variants.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) rounds[variants.indexOf(variant)].push(await measure(variant.books, operation));
  }
  const base = rounds[0];
  const total = (m) => m.node + m.db + m.pooler;
  for (const [index, variant] of variants.entries()) {
    const list = rounds[index];
    const mid = (key) => median(list.map((m) => m[key]));
    const ratio = (of) => median(list.map((m, round) => of(m, base[round])));
    rows.push({
      title,
      variant: variant.name,
      opsPerSecond: mid('opsPerSecond'),
      node: mid('node'),
      db: mid('db'),
      pooler: mid('pooler'),
      opsRatio: ratio((m, b) => m.opsPerSecond / b.opsPerSecond),
      cpuRatio: ratio((m, b) => total(m) / total(b)),
    });
    console.error(`${title.padEnd(24)} ${variant.name.padEnd(36)} ${Math.round(mid('opsPerSecond'))} ops/s`);
  }
}
for (const variant of variants) await variant.store.close();

const round = (value) => Math.round(value).toLocaleString('en-US');
console.log(
  '| operation | store | ops/s | Node CPU/op (µs) | PostgreSQL CPU/op (µs) | PgBouncer CPU/op (µs) | ops/s ratio | CPU ratio |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
for (const row of rows) {
  console.log(
    `| ${row.title} | ${row.variant} | ${round(row.opsPerSecond)} | ${round(row.node)} | ${round(row.db)} | ` +
      `${round(row.pooler)} | ${row.opsRatio.toFixed(2)}x | ${row.cpuRatio.toFixed(2)}x |`,
  );
}
console.log(
  '\nRatios to the default store, medians of the per-round ratios; CPU ratio: the CPU of all three ' +
    '(Node, PostgreSQL, PgBouncer) per operation, relative to the default (lower is cheaper).',
);
