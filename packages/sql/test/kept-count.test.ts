// A kept count (`keepCount`, query/kept-count.ts): on PostgreSQL the count of each tenant's records
// that are not archived, kept by triggers through every path a record is written by (create,
// createMany, an archive and a restore, a move to another tenant, a destroy, a parent's cascade,
// SQL by hand, TRUNCATE, a rolled-back transaction, concurrent writers), always equal to
// `count(*)`; read by a list whose conditions are exactly the tenant's and the archive's, and by
// no other; made for a table that has rows by the statement the drift check names, and removed by
// the migration's `down`. The other databases make nothing of it.

import 'reflect-metadata';
import { belongsTo, defineResource } from '@resourcery/core';
import { resourceSchemas } from '@resourcery/core/adapter';
import type { CollectionSchema, Condition, ListQuery } from '@resourcery/core/store';
import { createTablesMigration, schemaSql, sqlStore } from '@resourcery/sql';
import { IsInt, IsISO8601, IsOptional, IsString } from 'class-validator';
import fc from 'fast-check';
import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { onCapturingStore } from './helpers/capturing-db.js';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';
import { keptCountObjects } from './helpers/kept-counts.js';

class Project {
  @IsInt() orgId!: number;
  @IsString() name!: string;
}
class Issue {
  @IsInt() orgId!: number;
  @IsInt() projectId!: number;
  @IsString() title!: string;
  @IsOptional() @IsISO8601() archivedAt?: string | null;
}
const projectResource = defineResource({ name: 'project', model: Project });
const issueResource = defineResource({
  name: 'issue',
  model: Issue,
  archive: 'archivedAt',
  keepCount: true,
  relations: { project: belongsTo(Project, { foreignKey: 'projectId', onDelete: 'cascade' }) },
});
const schemas = resourceSchemas([projectResource, issueResource], { tenancy: { field: 'orgId' } });
const [projects, issues] = schemas as [CollectionSchema, CollectionSchema];

/** A list of the tenant's issues that are not archived, with `more` conditions, counted. */
const listOf = (org: number, more: Condition[] = [], count: ListQuery['count'] = true): ListQuery => ({
  where: [{ field: 'orgId', values: [org] }, { field: 'archivedAt', values: [true], op: 'null' }, ...more],
  order: [{ field: 'id', direction: 'desc' }],
  limit: 5,
  offset: 0,
  count,
});

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
type Db = Kysely<any>;

/** Each tenant's kept count and its `count(*)`, which must be equal. */
async function counts(
  db: Db,
  tables: string,
): Promise<{ kept: Record<string, number>; actual: Record<string, number> }> {
  const read = async (statement: ReturnType<typeof sql>) =>
    Object.fromEntries(
      ((await statement.execute(db)).rows as { org: string; n: string }[])
        .filter((row) => Number(row.n) !== 0)
        .map((row) => [row.org, Number(row.n)]),
    );
  const kept = await read(
    sql`select "orgId" as org, sum(live) as n from ${sql.table(`${tables}issues__counts`)} group by 1`,
  );
  const actual = await read(
    sql`select "orgId" as org, count(*) as n from ${sql.table(`${tables}issues`)} where "archivedAt" is null group by 1`,
  );
  return { kept, actual };
}

describe('a kept count', () => {
  it('is made on PostgreSQL only, with or without a tenant and an archive', () => {
    for (const dialect of ['sqlite', 'mariadb', 'mysql'] as const)
      expect(schemaSql(schemas, dialect)).not.toContain('__count');
    const script = schemaSql(schemas, 'postgres', { tablePrefix: 'app_' });
    expect(script).toContain('CREATE TABLE "app_issues__counts" ("orgId" BIGINT NOT NULL, "shard" SMALLINT NOT NULL');
    expect(script).toContain(
      'FOR EACH ROW WHEN ((OLD."archivedAt" IS NULL) IS DISTINCT FROM (NEW."archivedAt" IS NULL)',
    );
    // Without tenancy: one count for the table; without an archive: an update changes nothing.
    const [, plain] = resourceSchemas([
      projectResource,
      defineResource({ name: 'issue', model: Issue, keepCount: true, relations: issueResource.options.relations }),
    ]);
    const alone = schemaSql([plain as CollectionSchema], 'postgres');
    expect(alone).toContain('"shard" SMALLINT NOT NULL, "live" BIGINT NOT NULL, PRIMARY KEY ("shard")');
    expect(alone).not.toContain('AFTER UPDATE');
    expect(() => defineResource({ name: 'issue', model: Issue, keepCount: 'yes' as never })).toThrow(
      'keepCount must be true or false',
    );
  });

  if (!serverAvailable('postgres')) return;

  it('postgres: every write path keeps it equal to count(*), and the whole list reads it', () =>
    onCapturingStore('postgres', async ({ db, captured, store, tables }) => {
      await store.init(schemas);
      const projectsOf = store.collection(projects);
      const issuesOf = store.collection(issues);
      const check = async () => {
        const { kept, actual } = await counts(db, tables);
        expect(kept).toEqual(actual);
      };
      const [p1, p2, p3] = [
        await projectsOf.create({ orgId: 1, name: 'A' }),
        await projectsOf.create({ orgId: 1, name: 'B' }),
        await projectsOf.create({ orgId: 2, name: 'C' }),
      ];
      const a = await issuesOf.create({ orgId: 1, projectId: p1.id, title: 'a' });
      const many = (await issuesOf.createMany?.([
        { orgId: 1, projectId: p2.id, title: 'b' },
        { orgId: 1, projectId: p2.id, title: 'c' },
        { orgId: 2, projectId: p3.id, title: 'd' },
        { orgId: 1, projectId: p1.id, title: 'archived already', archivedAt: '2026-01-01T00:00:00.000Z' },
      ])) as { id: number }[];
      await check();
      expect((await counts(db, tables)).kept).toEqual({ 1: 3, 2: 1 });
      // Archive, another archive time, a title, restore: only the archive and the restore count.
      await issuesOf.update(a.id, { archivedAt: '2026-02-01T00:00:00.000Z' }, []);
      await issuesOf.update(a.id, { archivedAt: '2026-03-01T00:00:00.000Z' }, []);
      await issuesOf.update(many[0]?.id as number, { title: 'B' }, []);
      await check();
      await issuesOf.update(a.id, { archivedAt: null }, []);
      // A move to another tenant.
      await issuesOf.update(many[1]?.id as number, { orgId: 2, projectId: p3.id }, []);
      await check();
      expect((await counts(db, tables)).kept).toEqual({ 1: 2, 2: 2 });
      // A destroy, and a parent's cascade.
      await issuesOf.destroy(many[2]?.id as number, []);
      await projectsOf.destroy(p2.id, []);
      await check();
      // A rolled-back transaction leaves it as it was.
      const before = await counts(db, tables);
      await expect(
        store.transaction(async (tx) => {
          await tx.collection(issues).create({ orgId: 1, projectId: p1.id, title: 'undone' });
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect(await counts(db, tables)).toEqual(before);
      // SQL by hand: a thousand rows in one statement, an update of several, a delete.
      const table = sql.table(`${tables}issues`);
      await sql`insert into ${table} ("orgId", "projectId", title) select 1 + g % 2, case when g % 2 = 0 then ${p1.id}::bigint else ${p3.id}::bigint end, 'x' || g from generate_series(1, 1000) g`.execute(
        db,
      );
      await sql`update ${table} set "archivedAt" = now() where title like 'x1%'`.execute(db);
      await sql`delete from ${table} where title like 'x2%'`.execute(db);
      await check();

      // The whole list reads it: no count(*) of the issues, and the same total.
      const { actual } = await counts(db, tables);
      for (const count of [true, 'estimated'] as const) {
        captured.length = 0;
        const listed = await issuesOf.list(listOf(1, [], count));
        expect(listed).toMatchObject({ total: actual[1] });
        expect(listed.estimated).toBeUndefined();
        expect(captured.map((query) => query.sql).join('\n')).toContain('__counts');
      }
      // A page past the end too.
      expect((await issuesOf.list({ ...listOf(2), offset: 10_000 })).total).toBe(actual[2]);
      // Any other condition is counted from the issues: a filter, archived records, a search's
      // absence of tenant, a row rule (a condition like any other).
      const others: ListQuery[] = [
        listOf(1, [{ field: 'title', values: ['a'] }]),
        {
          ...listOf(1),
          where: [
            { field: 'orgId', values: [1] },
            { field: 'archivedAt', values: [false], op: 'null' },
          ],
        },
        {
          ...listOf(1),
          where: [
            { field: 'orgId', values: [1, 2] },
            { field: 'archivedAt', values: [true], op: 'null' },
          ],
        },
        { ...listOf(1), where: [{ field: 'archivedAt', values: [true], op: 'null' }] },
        listOf(1, [{ field: 'projectId', values: [p1.id] }]),
      ];
      for (const query of others) {
        captured.length = 0;
        const { total } = await issuesOf.list(query);
        expect(captured.map((statement) => statement.sql).join('\n')).not.toContain('__counts');
        const exact = await sql<{ n: string }>`select count(*) as n from ${table} where ${sql.join(
          query.where.map((condition) => whereOf(condition)),
          sql` and `,
        )}`.execute(db);
        expect(total).toBe(Number(exact.rows[0]?.n));
      }
      // TRUNCATE empties it.
      await sql`truncate ${table} cascade`.execute(db);
      expect(await counts(db, tables)).toEqual({ kept: {}, actual: {} });
      expect((await issuesOf.list(listOf(1))).total).toBe(0);
    }));

  it('postgres: without a tenant or an archive, the whole table is counted from it', () =>
    onCapturingStore('postgres', async ({ captured, store }) => {
      const [parent, plain] = resourceSchemas([
        projectResource,
        defineResource({ name: 'issue', model: Issue, keepCount: true, relations: issueResource.options.relations }),
      ]) as [CollectionSchema, CollectionSchema];
      await store.init([parent, plain]);
      const project = await store.collection(parent).create({ orgId: 1, name: 'A' });
      const issuesOf = store.collection(plain);
      await issuesOf.createMany?.([1, 2, 3].map((n) => ({ orgId: n, projectId: project.id, title: `t${n}` })));
      await issuesOf.update(1, { archivedAt: '2026-01-01T00:00:00.000Z', orgId: 2 }, []); // no count changes
      await issuesOf.destroy(2, []);
      const list = (where: Condition[]) => ({ ...listOf(1), where });
      captured.length = 0;
      expect((await issuesOf.list(list([]))).total).toBe(2);
      expect(captured.map((query) => query.sql).join('\n')).toContain('__counts');
      captured.length = 0;
      expect((await issuesOf.list(list([{ field: 'orgId', values: [2] }]))).total).toBe(1);
      expect(captured.map((query) => query.sql).join('\n')).not.toContain('__counts');
    }));

  it('postgres: concurrent writers of one tenant and random writes keep it exact (property)', async () => {
    const tablePrefix = `kc${Math.random().toString(36).slice(2, 8)}_`;
    const store = droppingTables(sqlStore(SERVERS.postgres.url, { tablePrefix }), tablePrefix);
    try {
      await store.init(schemas);
      const issuesOf = store.collection(issues);
      const parents = [
        await store.collection(projects).create({ orgId: 1, name: 'one' }),
        await store.collection(projects).create({ orgId: 2, name: 'two' }),
      ];
      const done = { destroyed: 0, moved: 0 };
      const write = fc.oneof(
        fc.record({
          kind: fc.constant('create' as const),
          org: fc.integer({ min: 1, max: 2 }),
          archived: fc.boolean(),
        }),
        fc.record({ kind: fc.constant('archive' as const), pick: fc.nat(), archived: fc.boolean() }),
        fc.record({ kind: fc.constant('move' as const), pick: fc.nat() }),
        fc.record({ kind: fc.constant('destroy' as const), pick: fc.nat() }),
        fc.record({
          kind: fc.constant('many' as const),
          org: fc.integer({ min: 1, max: 2 }),
          n: fc.integer({ min: 1, max: 20 }),
        }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(write, { maxLength: 8 }), { minLength: 1, maxLength: 6 }),
          async (writers) => {
            const { rows } = await sql<{
              id: number;
              orgId: number;
            }>`select id, "orgId" from ${sql.table(`${tablePrefix}issues`)}`.execute(store.db);
            const pick = (n: number) => {
              const row = rows[n % Math.max(rows.length, 1)];
              return row && { id: Number(row.id), orgId: Number(row.orgId) };
            };
            // Each list of writes runs on its own connection, all lists at once.
            await Promise.all(
              writers.map(async (writes) => {
                for (const one of writes) {
                  const archivedAt = 'archived' in one && one.archived ? '2026-05-05T00:00:00.000Z' : null;
                  const parent = (org: number) => parents[org - 1]?.id as number;
                  if (one.kind === 'create')
                    await issuesOf.create({ orgId: one.org, projectId: parent(one.org), title: 't', archivedAt });
                  else if (one.kind === 'many')
                    await issuesOf.createMany?.(
                      Array.from({ length: one.n }, () => ({ orgId: one.org, projectId: parent(one.org), title: 'm' })),
                    );
                  else {
                    const row = pick(one.pick);
                    if (!row) continue;
                    if (one.kind === 'archive') await issuesOf.update(row.id, { archivedAt }, []);
                    else if (one.kind === 'destroy') done.destroyed += Number(await issuesOf.destroy(row.id, []));
                    else {
                      const to = 3 - row.orgId;
                      done.moved += Number(
                        (await issuesOf.update(row.id, { orgId: to, projectId: parent(to) }, [])) !== undefined,
                      );
                    }
                  }
                }
              }),
            );
            const { kept, actual } = await counts(store.db, tablePrefix);
            expect(kept).toEqual(actual);
            for (const org of [1, 2]) expect((await issuesOf.list(listOf(org))).total).toBe(actual[org] ?? 0);
          },
        ),
        { numRuns: 25 },
      );
      // Destroys and moves happened, and the writers' shards: more than one row of a tenant, so that
      // they did not all queue on one.
      const { rows } = await sql<{
        n: string;
      }>`select count(*) as n from ${sql.table(`${tablePrefix}issues__counts`)}`.execute(store.db);
      expect(Number(rows[0]?.n)).toBeGreaterThan(2);
      expect(done.destroyed).toBeGreaterThan(0);
      expect(done.moved).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it('postgres: a table made before it is refused at start with the statement that makes it, counted', () =>
    onCapturingStore('postgres', async ({ db, store, tables }) => {
      const { keepCount, ...uncounted } = issues;
      await store.init([projects, uncounted]);
      const project = await store.collection(projects).create({ orgId: 1, name: 'A' });
      await sql`insert into ${sql.table(`${tables}issues`)} ("orgId", "projectId", title, "archivedAt")
        select 1, ${project.id}, 'x', case when g % 3 = 0 then now() end from generate_series(1, 30) g`.execute(db);
      store.collection(issues);
      const refusal = store.init(schemas);
      await expect(refusal).rejects.toThrow(
        `its kept count (keepCount) has no table "${tables}issues__counts": run DO`,
      );
      const statementOf = async (refused: Promise<unknown>) => {
        const message = (await refused.catch((error: Error) => error.message)) as string;
        return /run (DO \$resourcery\$[\s\S]*?\$resourcery\$)/.exec(message)?.[1] as string;
      };
      const statement = await statementOf(refusal);
      const oid = async () =>
        (await sql<{ oid: number }>`select to_regclass(${`"${tables}issues__counts"`})::oid as oid`.execute(db)).rows[0]
          ?.oid;
      await sql.raw(statement).execute(db);
      const made = await oid();
      await sql.raw(statement).execute(db); // a second run leaves it as it is
      expect(await oid()).toBe(made);
      await store.init(schemas);
      expect(await counts(db, tables)).toEqual({ kept: { 1: 20 }, actual: { 1: 20 } });
      expect((await store.collection(issues).list(listOf(1))).total).toBe(20);
      // A trigger dropped by hand, and rows written without it: refused, and the statement counts afresh.
      const issuesTable = sql.table(`${tables}issues`);
      await sql`drop trigger ${sql.ref(`${tables}issues__count_insert`)} on ${issuesTable}`.execute(db);
      await sql`insert into ${issuesTable} ("orgId", "projectId", title) values (1, ${project.id}, 'y'), (1, ${project.id}, 'z')`.execute(
        db,
      );
      const again = store.init(schemas);
      await expect(again).rejects.toThrow(
        `its kept count (keepCount) has no trigger "${tables}issues__count_insert": run DO`,
      );
      await sql.raw(await statementOf(again)).execute(db);
      await store.init(schemas);
      expect(await counts(db, tables)).toEqual({ kept: { 1: 22 }, actual: { 1: 22 } });
    }));

  it('postgres: the migration that creates the tables makes it, and its down removes it', () =>
    onCapturingStore('postgres', async ({ db, tables }) => {
      const migration = createTablesMigration(schemas, { tablePrefix: tables });
      await migration.up(db);
      const table = `${tables}issues`;
      expect(await keptCountObjects(db, table)).toEqual(keptCountObjects.expected(table));
      await migration.down?.(db);
      expect(await keptCountObjects(db, table)).toEqual([]);
    }));
});

/** A condition of {@link listOf} as SQL, for the exact count to compare with. */
function whereOf(condition: Condition) {
  const column = sql.ref(condition.field);
  if (condition.op === 'null') return condition.values[0] ? sql`${column} is null` : sql`${column} is not null`;
  return sql`${column} in (${sql.join(condition.values)})`;
}
