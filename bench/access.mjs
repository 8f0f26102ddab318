// What the access model costs an index: the same page of issues (10,000 in 10 organizations; page
// 3 of 25, counted) read through the declared access model (tenancy, a field hidden by role) and
// through what a team wrote before it: a `scope` step with the same condition and `fields.show`
// without the hidden field, the caller found by the same function. Both run in one process,
// their rounds interleaved (each going first in turn), so the machine's load falls on both
// alike; the median of the rounds' ratios is the answer.
// The core alone (`api.handle()`, no sockets), on the memory store and SQLite, and PostgreSQL
// with --pg <url>. Usage: npm run build && node bench/access.mjs [--rounds 15] [--pg postgres://…]
// Instruction counts: valgrind --tool=callgrind node bench/access.mjs --variant 'access model' --calls 6000
// (and 2000, and the same for 'scope step'): (total 6000 − total 2000) / 4000 per request.
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApi, defineResource, memoryStore } from '@resourcery/core';
import { sqlStore } from '@resourcery/sql';
import { IsBoolean, IsInt, IsOptional, IsString, Length } from 'class-validator';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '15' },
    pg: { type: 'string' },
    calls: { type: 'string' },
    // For an instruction count (valgrind --tool=callgrind): one variant, `--calls` requests, memory store.
    variant: { type: 'string' },
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

async function measure(label, makeStore, calls) {
  const store = await makeStore();
  await seed(store);
  const apis = Object.fromEntries(Object.entries(variants).map(([name, make]) => [name, make(store)]));
  const answers = {};
  for (const [name, api] of Object.entries(apis)) {
    const reply = await api.handle(request);
    if (reply.status !== 200) throw new Error(`${label} ${name}: ${reply.status} ${reply.body}`);
    answers[name] = reply.body;
    for (let i = 0; i < calls; i++) await api.handle(request);
  }
  if (answers['scope step'] !== answers['access model'])
    throw new Error(`${label}: the two variants answer differently`);
  // Rounds alternate which variant goes first; the answer is the median of the rounds' ratios.
  const names = Object.keys(apis);
  const times = Object.fromEntries(names.map((name) => [name, []]));
  const ratios = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    const took = {};
    for (const name of order) {
      const api = apis[name];
      const start = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) await api.handle(request);
      took[name] = Number(process.hrtime.bigint() - start) / calls / 1000;
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
  await store.close?.();
}

if (args.variant) {
  // Instructions per request, without the machine's noise: run under callgrind twice with
  // different --calls, and divide the difference of the totals by the difference of the calls.
  const store = memoryStore();
  await seed(store);
  const api = variants[args.variant](store);
  for (let i = 0; i < Number(args.calls ?? 1000); i++) await api.handle(request);
  process.exit(0);
}

const folder = mkdtempSync(join(tmpdir(), 'bench-access-'));
try {
  await measure('memory', () => memoryStore(), Number(args.calls ?? 3000));
  await measure('SQLite', () => sqlStore(`sqlite:${join(folder, 'issues.sqlite')}`), Number(args.calls ?? 1000));
  if (args.pg) {
    await measure(
      'PostgreSQL',
      async () => {
        const store = sqlStore(args.pg);
        await store.init?.([]);
        return store;
      },
      Number(args.calls ?? 300),
    );
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
