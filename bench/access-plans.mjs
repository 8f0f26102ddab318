// The plans of the statements a store runs for an index read through access rules, on PostgreSQL
// and SQLite: tenancy, and a row rule with a relation predicate (`{ 'project.ownerId': p.sub }`),
// over 200,000 issues in 1,000 projects of 10 organizations. Shows that the rule is an index
// lookup (a semi-join from the projects' index into the issues' foreign-key index), not a
// subquery per row, and what a page costs. Usage:
//   npm run build && node bench/access-plans.mjs [--pg postgres://postgres@127.0.0.1:5432/postgres]
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { belongsTo, createApi, defineResource } from '@resourcery/core';
import { sqlStore } from '@resourcery/sql';
import Database from 'better-sqlite3';
import { IsInt, IsString, Length } from 'class-validator';
import { PostgresDialect, SqliteDialect, sql } from 'kysely';
import { benchPostgresPool, explainPostgres, explainSqlite, recordingKysely } from './lib/sql-bench.mjs';

const { values: args } = parseArgs({
  options: { pg: { type: 'string', default: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' } },
});
const PROJECTS = 1_000;
const ISSUES = 200_000;
const PREFIX = 'access_plans_';

class Project {
  orgId;
  ownerId;
  name;
}
IsInt()(Project.prototype, 'orgId');
IsInt()(Project.prototype, 'ownerId');
IsString()(Project.prototype, 'name');
Length(1, 100)(Project.prototype, 'name');

class Issue {
  orgId;
  projectId;
  title;
}
IsInt()(Issue.prototype, 'orgId');
IsInt()(Issue.prototype, 'projectId');
IsString()(Issue.prototype, 'title');
Length(1, 200)(Issue.prototype, 'title');

const projects = defineResource({ name: 'project', model: Project });
const issues = defineResource({
  name: 'issue',
  model: Issue,
  relations: { project: belongsTo(Project, { foreignKey: 'projectId' }) },
  // The issues of the projects the caller owns: a relation predicate, compiled into the query.
  access: { read: (p) => ({ 'project.ownerId': p.sub }) },
});

/** Owner 7 of organization 3 owns 10 of its 100 projects. */
const request = {
  method: 'GET',
  path: '/issues',
  basePath: '/api',
  rawQuery: 'per_page=25',
  headers: { 'x-caller': '7:3' },
};

function api(store) {
  return createApi({
    resources: [projects, issues],
    store,
    secret: 'plans secret, 16+ characters',
    authenticate: (req) => {
      const [sub, org] = (req.headers['x-caller'] ?? '').split(':').map(Number);
      return sub ? { sub, org } : undefined;
    },
    tenancy: { field: 'orgId', of: (p) => p.org },
  });
}

async function show(label, db, capture, explain, seed) {
  const store = sqlStore(db, { tablePrefix: PREFIX });
  const served = api(store);
  await served.ready();
  await seed(db);
  const { result, queries } = await capture(() => served.handle(request));
  if (result.status !== 200) throw new Error(`${label}: ${result.status} ${result.body}`);
  const body = JSON.parse(result.body);
  const started = performance.now();
  for (let i = 0; i < 50; i++) await served.handle(request);
  console.log(
    `\n## ${label}: ${body.issues.length} issues on the page, X-Total-Count ${result.headers['X-Total-Count']}`,
  );
  console.log(`(${((performance.now() - started) / 50).toFixed(2)} ms per index request, 50 in a row)`);
  for (const query of queries) {
    console.log(`\n${query.sql}\n${JSON.stringify(query.parameters)}\n`);
    console.log(await explain(db, query));
  }
}

// PostgreSQL: tables made by the store, then rows inserted set-wise.
const pool = await benchPostgresPool(args.pg);
const pgDb = recordingKysely(new PostgresDialect({ pool }));
for (const table of ['issues', 'projects']) await sql.raw(`drop table if exists ${PREFIX}${table}`).execute(pgDb.db);
await show('PostgreSQL', pgDb.db, pgDb.capture, explainPostgres, async (db) => {
  await sql
    .raw(
      `insert into ${PREFIX}projects ("orgId", "ownerId", name) select 1 + (g % 10), 1 + (g / 10) % 10, 'Project ' || g from generate_series(0, ${PROJECTS - 1}) g`,
    )
    .execute(db);
  await sql
    .raw(
      `insert into ${PREFIX}issues ("orgId", "projectId", title) select p."orgId", p.id, 'Issue ' || g from generate_series(0, ${ISSUES - 1}) g join ${PREFIX}projects p on p.id = 1 + (g % ${PROJECTS})`,
    )
    .execute(db);
  await sql.raw(`analyze ${PREFIX}projects; analyze ${PREFIX}issues`).execute(db);
});
for (const table of ['issues', 'projects']) await sql.raw(`drop table if exists ${PREFIX}${table}`).execute(pgDb.db);
await pgDb.db.destroy();

const folder = mkdtempSync(join(tmpdir(), 'access-plans-'));
try {
  const sqlite = recordingKysely(new SqliteDialect({ database: new Database(join(folder, 'plans.sqlite')) }));
  await show('SQLite', sqlite.db, sqlite.capture, explainSqlite, async (db) => {
    await sql
      .raw(
        `with recursive g(n) as (select 0 union all select n + 1 from g where n < ${PROJECTS - 1}) insert into ${PREFIX}projects ("orgId", "ownerId", name) select 1 + (n % 10), 1 + (n / 10) % 10, 'Project ' || n from g`,
      )
      .execute(db);
    await sql
      .raw(
        `with recursive g(n) as (select 0 union all select n + 1 from g where n < ${ISSUES - 1}) insert into ${PREFIX}issues ("orgId", "projectId", title) select p."orgId", p.id, 'Issue ' || n from g join ${PREFIX}projects p on p.id = 1 + (n % ${PROJECTS})`,
      )
      .execute(db);
    await sql.raw('analyze').execute(db);
  });
  await sqlite.db.destroy();
} finally {
  rmSync(folder, { recursive: true, force: true });
}
