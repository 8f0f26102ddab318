// What the access model costs an index: the same page of issues (10,000 in 10 organizations; page
// 3 of 25, counted) read through the declared access model (tenancy, a field hidden by role) and
// through what a team wrote before it: a `scope` step with the same condition and `fields.show`
// without the hidden field, the caller found by the same function. In one run, each round runs
// each variant in a process of its own, in turns, so the machine's load falls on both alike; the
// median of the rounds' ratios is the answer. The core alone (`api.handle()`, no sockets), on the
// memory store and SQLite, and PostgreSQL with --pg <url>.
//   npm run build && node bench/access.mjs [--rounds 9] [--pg postgres://…]
// Instruction counts (repeatable whatever the machine's load), memory store:
//   valgrind --tool=callgrind node bench/access.mjs --variant 'access model' --calls 6000
// and with --calls 2000, and the same for 'scope step': (total 6000 − total 2000) / 4000 per request.
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApi, defineResource, memoryStore } from '@resourcery/core';
import { sqlStore } from '@resourcery/sql';
import { IsBoolean, IsInt, IsOptional, IsString, Length } from 'class-validator';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '9' },
    pg: { type: 'string' },
    calls: { type: 'string' },
    // One variant alone, in this process (what the rounds run; also for valgrind --tool=callgrind).
    variant: { type: 'string' },
    store: { type: 'string', default: 'memory' },
    time: { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(args.rounds);
const ISSUES = 10_000;
const ORGS = 10;

class Issue {
  title;
  orgId;
  priority;
  secret;
}
IsString()(Issue.prototype, 'title');
Length(1, 200)(Issue.prototype, 'title');
IsInt()(Issue.prototype, 'orgId');
IsInt()(Issue.prototype, 'priority');
IsOptional()(Issue.prototype, 'secret');
IsBoolean()(Issue.prototype, 'secret');

/** The caller of a request, from a header: the same work for both variants. */
const callerOf = (request) => {
  const [org, role] = (request.headers['x-caller'] ?? '').split(':');
  return org ? { org: Number(org), role } : undefined;
};

const variants = {
  'scope step': (store) =>
    createApi({
      resources: [
        defineResource({
          name: 'issue',
          model: Issue,
          fields: { show: ['title', 'orgId', 'priority'] },
          steps: { scope: (ctx) => ({ orgId: ctx.state.caller.org }) },
        }),
      ],
      store,
      secret: 'bench secret, 16+ characters',
      state: (request) => ({ caller: callerOf(request) }),
    }),
  'access model': (store) =>
    createApi({
      resources: [
        defineResource({
          name: 'issue',
          model: Issue,
          access: { fields: { secret: { read: ['admin'] } } },
        }),
      ],
      store,
      secret: 'bench secret, 16+ characters',
      authenticate: callerOf,
      tenancy: { field: 'orgId', of: (caller) => caller.org },
    }),
};

const request = {
  method: 'GET',
  path: '/issues',
  basePath: '/api',
  rawQuery: 'page=3&per_page=25',
  headers: { host: '127.0.0.1', accept: '*/*', 'x-caller': '3:member' },
};

async function seed(store) {
  const api = variants['scope step'](store);
  await api.ready();
  const collection = store.collection({
    name: 'issues',
    attributes: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'title', type: 'string', nullable: false, maxLength: 200 },
      { name: 'orgId', type: 'integer', nullable: false },
      { name: 'priority', type: 'integer', nullable: false },
      { name: 'secret', type: 'boolean', nullable: true },
    ],
    indexed: ['orgId', 'priority'],
  });
  for (let i = 0; i < ISSUES; i++) {
    await collection.create({ title: `Issue ${i}`, orgId: 1 + (i % ORGS), priority: 1 + (i % 4), secret: i % 2 === 0 });
  }
}

/** The store of a spec: `memory` (seeded here), or a SQLite or PostgreSQL URL (seeded by the parent). */
async function storeOf(spec) {
  if (spec !== 'memory') return sqlStore(spec);
  const store = memoryStore();
  await seed(store);
  return store;
}

/** Checks that both variants answer the same page, seeding the store of a SQL spec first. */
async function check(label, spec) {
  const store = spec === 'memory' ? await storeOf(spec) : sqlStore(spec);
  if (spec !== 'memory') {
    const api = variants['scope step'](store);
    await api.ready();
    const first = await api.handle({ ...request, rawQuery: 'per_page=1&count=true' });
    if (first.headers['X-Total-Count'] !== String(ISSUES)) await seed(store);
  }
  const answers = [];
  for (const make of Object.values(variants)) {
    const reply = await make(store).handle(request);
    if (reply.status !== 200) throw new Error(`${label}: ${reply.status} ${reply.body}`);
    answers.push(reply.body);
  }
  if (answers[0] !== answers[1]) throw new Error(`${label}: the two variants answer differently`);
  await store.close?.();
}

/**
 * Each round runs each variant in a process of its own (so that neither inherits the other's
 * JIT feedback), in turns, the first going first every other round; the answer is the median
 * of the rounds' ratios.
 */
async function measure(label, spec, calls) {
  await check(label, spec);
  const run = (variant) =>
    Number(
      execFileSync(
        process.execPath,
        [import.meta.filename, '--variant', variant, '--store', spec, '--calls', String(calls), '--time'],
        { encoding: 'utf8' },
      ).trim(),
    );
  const names = Object.keys(variants);
  const times = Object.fromEntries(names.map((name) => [name, []]));
  const ratios = [];
  for (let round = 0; round < ROUNDS; round++) {
    const took = {};
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      took[name] = run(name);
      times[name].push(took[name]);
    }
    ratios.push(took['access model'] / took['scope step']);
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const [scope, access] = [median(times['scope step']), median(times['access model'])];
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(
    `${label.padEnd(11)} scope step ${scope.toFixed(1)} µs, access model ${access.toFixed(1)} µs per index page: ratio ${median(ratios).toFixed(3)} (rounds ${sorted[0].toFixed(3)}–${sorted[sorted.length - 1].toFixed(3)})`,
  );
}

if (args.variant) {
  const store = await storeOf(args.store);
  const api = variants[args.variant](store);
  const calls = Number(args.calls ?? 1000);
  // Warm-up: a third of the calls, untimed.
  for (let i = 0; i < calls / 3; i++) await api.handle(request);
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await api.handle(request);
  if (args.time) console.log((Number(process.hrtime.bigint() - start) / calls / 1000).toFixed(1));
  await store.close?.();
  process.exit(0);
}

const folder = mkdtempSync(join(tmpdir(), 'bench-access-'));
try {
  await measure('memory', 'memory', Number(args.calls ?? 10000));
  await measure('SQLite', `sqlite:${join(folder, 'issues.sqlite')}`, Number(args.calls ?? 5000));
  if (args.pg) await measure('PostgreSQL', args.pg, Number(args.calls ?? 1000));
} finally {
  rmSync(folder, { recursive: true, force: true });
}
