// A join table's kept count (query/kept-count.ts, read by query/kept-total.ts): when the owner
// keeps its count (`keepCount`), its join tables keep, on PostgreSQL, the count of their rows per
// other record and tenant, not archived (`issue_labels__counts (labelId, orgId, shard, live)`),
// through every path a join row is written by (create, createMany, a set replaced, an archive and
// a restore of the issue, a move to another tenant, a label destroyed, SQL by hand, a rolled-back
// transaction, TRUNCATE, concurrent writers); read by the count of a list filtered by one label
// of the tenant, not archived, and by no other; made for a table that has rows by the statement
// the drift check names, and removed by the migration's `down`.

import 'reflect-metadata';
import { defineResource, manyToMany } from '@resourcery/core';
import { resourceSchemas } from '@resourcery/core/adapter';
import type { CollectionSchema, Id, ListQuery, StoredValue } from '@resourcery/core/store';
import { createTablesMigration, schemaSql, sqlStore } from '@resourcery/sql';
import { IsInt, IsISO8601, IsOptional, IsString } from 'class-validator';
import fc from 'fast-check';
import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { onCapturingStore } from './helpers/capturing-db.js';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';
import { keptCountObjects } from './helpers/kept-counts.js';
import { labelled } from './helpers/labelled.js';

class Label {
  @IsInt() orgId!: number;
  @IsString() name!: string;
}
class Issue {
  @IsInt() orgId!: number;
  @IsString() title!: string;
  @IsOptional() @IsISO8601() archivedAt?: string | null;
  labelIds?: number[];
}
const labelResource = defineResource({ name: 'label', model: Label, unique: ['name'] });
const issueOptions = {
  name: 'issue',
  model: Issue,
  archive: 'archivedAt' as const,
  keepCount: true,
  relations: { labels: manyToMany(Label, { ids: 'labelIds' }) },
};
const tenancy = { tenancy: { field: 'orgId' } };
const schemas = resourceSchemas([labelResource, defineResource(issueOptions)], tenancy);
const [labels, issues] = schemas as [CollectionSchema, CollectionSchema];

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
type Db = Kysely<any>;

/** Each (label, tenant)'s kept count and the join rows' `count(*)`, which must be equal. */
async function counts(db: Db, tables: string) {
  const read = async (statement: ReturnType<typeof sql>) =>
    Object.fromEntries(
      ((await statement.execute(db)).rows as { label: string; org: string; n: string }[])
        .filter((row) => Number(row.n) !== 0)
        .map((row) => [`${row.label}/${row.org}`, Number(row.n)]),
    );
  const kept = await read(
    sql`select "labelId" as label, "orgId" as org, sum(live) as n from ${sql.table(`${tables}issue_labels__counts`)} group by 1, 2`,
  );
  const actual = await read(
    sql`select "labelId" as label, "orgId" as org, count(*) as n from ${sql.table(`${tables}issue_labels`)} where "archivedAt" is null group by 1, 2`,
  );
  return { kept, actual };
}

/** The exact count of `labelled(org, name, { archived })`, from the issues. */
async function exact(db: Db, tables: string, org: number, names: string[], archived = false): Promise<number> {
  const t = (name: string) => sql.table(`${tables}${name}`);
  const { rows } = await sql<{ n: string }>`select count(*) as n from ${t('issues')} i where i."orgId" = ${org}
    and (i."archivedAt" is null) = ${!archived} and exists (select 1 from ${t('issue_labels')} j join ${t('labels')} l
    on l.id = j."labelId" where j."issueId" = i.id and l."orgId" = ${org} and l.name in (${sql.join(names)}))`.execute(
    db,
  );
  return Number(rows[0]?.n);
}

/** A set of ids as a record's value. */
const ids = (...values: Id[]) => values as unknown as StoredValue;

describe('a join table’s kept count', () => {
  it('is made on PostgreSQL only, for the join tables of a collection that keeps its count', () => {
    for (const dialect of ['sqlite', 'mariadb', 'mysql'] as const)
      expect(schemaSql(schemas, dialect)).not.toContain('__count');
    const script = schemaSql(schemas, 'postgres');
    expect(script).toContain(
      'CREATE TABLE "issue_labels__counts" ("labelId" BIGINT NOT NULL, "orgId" BIGINT NOT NULL, "shard" SMALLINT NOT NULL, "live" BIGINT NOT NULL, PRIMARY KEY ("labelId", "orgId", "shard"))',
    );
    expect(script).toContain(
      'FOR EACH ROW WHEN ((OLD."archivedAt" IS NULL) IS DISTINCT FROM (NEW."archivedAt" IS NULL) OR OLD."labelId" IS DISTINCT FROM NEW."labelId" OR OLD."orgId" IS DISTINCT FROM NEW."orgId")',
    );
    // Not for an owner that does not keep its count.
    const { keepCount, ...uncounted } = issueOptions;
    expect(schemaSql(resourceSchemas([labelResource, defineResource(uncounted)], tenancy), 'postgres')).not.toContain(
      'issue_labels__count',
    );
  });

  if (!serverAvailable('postgres')) return;

  it('postgres: every write path keeps it equal to count(*), and one label’s count reads it', () =>
    onCapturingStore('postgres', async ({ db, captured, store, tables }) => {
      await store.init(schemas);
      const labelsOf = store.collection(labels);
      const issuesOf = store.collection(issues);
      const check = async () => {
        const { kept, actual } = await counts(db, tables);
        expect(kept).toEqual(actual);
      };
      const [bug, ui, docs] = [
        await labelsOf.create({ orgId: 1, name: 'bug' }),
        await labelsOf.create({ orgId: 1, name: 'ui' }),
        await labelsOf.create({ orgId: 1, name: 'docs' }),
      ];
      const otherBug = await labelsOf.create({ orgId: 2, name: 'bug' });
      const a = await issuesOf.create({ orgId: 1, title: 'a', labelIds: ids(bug.id, ui.id) });
      const many = (await issuesOf.createMany?.([
        { orgId: 1, title: 'b', labelIds: ids(bug.id) },
        { orgId: 1, title: 'c', labelIds: ids(ui.id, docs.id) },
        { orgId: 2, title: 'd', labelIds: ids(otherBug.id) },
        { orgId: 1, title: 'archived already', labelIds: ids(bug.id), archivedAt: '2026-01-01T00:00:00.000Z' },
      ])) as { id: number }[];
      await check();
      expect((await counts(db, tables)).kept).toEqual({
        [`${bug.id}/1`]: 2,
        [`${ui.id}/1`]: 2,
        [`${docs.id}/1`]: 1,
        [`${otherBug.id}/2`]: 1,
      });
      // A set replaced, an archive (and another archive time), a restore.
      await issuesOf.update(a.id, { labelIds: ids(docs.id) }, []);
      await issuesOf.update(many[0]?.id as number, { archivedAt: '2026-02-01T00:00:00.000Z' }, []);
      await issuesOf.update(many[0]?.id as number, { archivedAt: '2026-03-01T00:00:00.000Z' }, []);
      await check();
      await issuesOf.update(many[3]?.id as number, { archivedAt: null, labelIds: ids(bug.id, ui.id) }, []);
      // A move to another tenant (its copies move; its labels stay the first tenant's).
      await issuesOf.update(many[1]?.id as number, { orgId: 2 }, []);
      await check();
      // A destroy (an archive), a label destroyed (its join rows cascade).
      await issuesOf.destroy(many[3]?.id as number, []);
      await labelsOf.destroy(docs.id, []);
      await check();
      // A rolled-back transaction leaves it as it was.
      const before = await counts(db, tables);
      await expect(
        store.transaction(async (tx) => {
          await tx.collection(issues).create({ orgId: 1, title: 'undone', labelIds: ids(bug.id) });
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect(await counts(db, tables)).toEqual(before);
      // SQL by hand: rows in one statement, an update of several, a delete.
      const joins = sql.table(`${tables}issue_labels`);
      await sql`insert into ${joins} ("issueId", "labelId", "orgId", "archivedAt") select id, ${ui.id}::bigint, "orgId", "archivedAt" from ${sql.table(`${tables}issues`)} where "orgId" = 1 on conflict do nothing`.execute(
        db,
      );
      await sql`update ${joins} set "archivedAt" = now() where "issueId" = ${a.id}`.execute(db);
      await sql`delete from ${joins} where "labelId" = ${bug.id} and "issueId" <> ${many[0]?.id as number}`.execute(db);
      await check();

      // One label's count reads it, exact, whatever `count` asks; a page past the end too.
      await sql`update ${joins} set "archivedAt" = null where "issueId" = ${a.id}`.execute(db);
      for (const name of ['bug', 'ui', 'docs', 'none'])
        for (const count of [true, 'estimated'] as const) {
          captured.length = 0;
          const listed = await issuesOf.list({ ...labelled(1, name), count });
          expect(listed.total).toBe(await exact(db, tables, 1, [name]));
          expect(listed.estimated).toBeUndefined();
          if (name !== 'none') expect(captured.map((query) => query.sql).join('\n')).toContain('issue_labels__counts');
        }
      expect((await issuesOf.list({ ...labelled(1, 'ui'), offset: 1000 })).total).toBe(
        await exact(db, tables, 1, ['ui']),
      );
      // Any other list is counted from the join rows or the issues: two labels, archived issues,
      // another condition (a row rule is one).
      const others: [ListQuery, number][] = [
        [labelled(1, ['bug', 'ui']), await exact(db, tables, 1, ['bug', 'ui'])],
        [labelled(1, 'bug', { archived: true }), await exact(db, tables, 1, ['bug'], true)],
        [labelled(1, 'ui', { more: [{ field: 'title', values: ['a', 'c'] }] }), 1],
      ];
      for (const [query, total] of others) {
        captured.length = 0;
        expect((await issuesOf.list(query)).total).toBe(total);
        expect(captured.map((statement) => statement.sql).join('\n')).not.toContain('__counts');
      }
      // TRUNCATE empties it.
      await sql`truncate ${joins}`.execute(db);
      expect(await counts(db, tables)).toEqual({ kept: {}, actual: {} });
      expect((await issuesOf.list(labelled(1, 'ui'))).total).toBe(0);
    }));

  it('postgres: concurrent writers and random writes keep it exact (property)', async () => {
    const tablePrefix = `kj${Math.random().toString(36).slice(2, 8)}_`;
    const store = droppingTables(sqlStore(SERVERS.postgres.url, { tablePrefix }), tablePrefix);
    try {
      await store.init(schemas);
      const issuesOf = store.collection(issues);
      const names = ['bug', 'ui', 'docs'];
      const labelIds: Record<number, number[]> = { 1: [], 2: [] };
      for (const org of [1, 2])
        for (const name of names)
          labelIds[org]?.push((await store.collection(labels).create({ orgId: org, name })).id as number);
      const chosen = (org: number, mask: number) => ids(...(labelIds[org] ?? []).filter((_, i) => mask & (1 << i)));
      const write = fc.oneof(
        fc.record({ kind: fc.constant('create' as const), org: fc.integer({ min: 1, max: 2 }), mask: fc.nat(7) }),
        fc.record({ kind: fc.constant('many' as const), org: fc.integer({ min: 1, max: 2 }), mask: fc.nat(7) }),
        fc.record({ kind: fc.constant('relabel' as const), pick: fc.nat(), mask: fc.nat(7) }),
        fc.record({ kind: fc.constant('archive' as const), pick: fc.nat(), archived: fc.boolean() }),
        fc.record({ kind: fc.constant('move' as const), pick: fc.nat() }),
      );
      const done = { relabelled: 0, moved: 0 };
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.array(write, { maxLength: 8 }), { minLength: 1, maxLength: 5 }),
          async (writers) => {
            const { rows } = await sql<{ id: number; orgId: number }>`select id, "orgId" from ${sql.table(
              `${tablePrefix}issues`,
            )} order by id`.execute(store.db);
            const pick = (n: number) => rows[n % Math.max(rows.length, 1)];
            // Each list of writes runs on its own connection, all lists at once.
            await Promise.all(
              writers.map(async (writes) => {
                for (const one of writes) {
                  if (one.kind === 'create')
                    await issuesOf.create({ orgId: one.org, title: 't', labelIds: chosen(one.org, one.mask) });
                  else if (one.kind === 'many')
                    await issuesOf.createMany?.(
                      [1, 2, 3].map(() => ({ orgId: one.org, title: 'm', labelIds: chosen(one.org, one.mask) })),
                    );
                  else {
                    const row = pick(one.pick);
                    if (!row) continue;
                    const [id, org] = [Number(row.id), Number(row.orgId)];
                    if (one.kind === 'relabel')
                      done.relabelled += Number(
                        (await issuesOf.update(id, { labelIds: chosen(org, one.mask) }, [])) !== undefined,
                      );
                    else if (one.kind === 'archive')
                      await issuesOf.update(id, { archivedAt: one.archived ? '2026-05-05T00:00:00.000Z' : null }, []);
                    else done.moved += Number((await issuesOf.update(id, { orgId: 3 - org }, [])) !== undefined);
                  }
                }
              }),
            );
            const { kept, actual } = await counts(store.db, tablePrefix);
            expect(kept).toEqual(actual);
            for (const org of [1, 2])
              for (const name of names)
                expect((await issuesOf.list(labelled(org, name))).total).toBe(
                  await exact(store.db, tablePrefix, org, [name]),
                );
          },
        ),
        { numRuns: 20 },
      );
      expect(done.relabelled).toBeGreaterThan(0);
      expect(done.moved).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it('postgres: a join table made before it is refused at start with the statement that makes it, counted', () =>
    onCapturingStore('postgres', async ({ db, store, tables }) => {
      const { keepCount, ...uncounted } = issueOptions;
      await store.init(resourceSchemas([labelResource, defineResource(uncounted)], tenancy));
      const bug = await store.collection(labels).create({ orgId: 1, name: 'bug' });
      for (const title of ['a', 'b', 'c'])
        await store.collection(issues).create({ orgId: 1, title, labelIds: ids(bug.id) });
      // Refused (the issues' own kept count first, then the join table's), each time with the statement.
      const refusals: string[] = [];
      for (let tries = 0; tries < 3; tries++) {
        const refusal = await store.init(schemas).then(
          () => undefined,
          (error: Error) => error.message,
        );
        if (refusal === undefined) break;
        refusals.push(refusal);
        for (const statement of refusal.match(/DO \$resourcery\$[\s\S]*?\$resourcery\$/g) ?? [])
          await sql.raw(statement).execute(db);
      }
      expect(refusals.join('\n')).toContain(
        `its kept count (keepCount of issues) has no table "${tables}issue_labels__counts": run DO`,
      );
      await store.init(schemas);
      expect(await counts(db, tables)).toEqual({ kept: { [`${bug.id}/1`]: 3 }, actual: { [`${bug.id}/1`]: 3 } });
      expect((await store.collection(issues).list(labelled(1, 'bug'))).total).toBe(3);
    }));

  it('postgres: the migration that creates the tables makes it, and its down removes it', () =>
    onCapturingStore('postgres', async ({ db, tables }) => {
      const migration = createTablesMigration(schemas, { tablePrefix: tables });
      await migration.up(db);
      const table = `${tables}issue_labels`;
      expect(await keptCountObjects(db, table)).toEqual(keptCountObjects.expected(table));
      await migration.down?.(db);
      expect(await keptCountObjects(db, table)).toEqual([]);
    }));
});
