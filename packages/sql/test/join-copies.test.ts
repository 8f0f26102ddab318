// The copies a join table keeps of its owner's tenant and archive (ddl/join-copies.ts): written
// with the join rows by every write that makes them (create, createMany, an update of the set),
// kept right by every write that changes them (an archive, a restore, with or without the set),
// and read by the count of a relation filter through the join table, which reads the join table
// alone; a join table made before them is refused at start with the statements that migrate it.

import { readFileSync } from 'node:fs';
import 'reflect-metadata';
import { defineResource, manyToMany } from '@resourcery/core';
import { resourceSchemas } from '@resourcery/core/adapter';
import type { CollectionSchema, Id, StoredValue } from '@resourcery/core/store';
import { createTableSql, type SqlStoreProvider, schemaSql, sqlStore } from '@resourcery/sql';
import { IsInt, IsISO8601, IsOptional, IsString, Length } from 'class-validator';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { copiesMigration, withCopies } from '../src/ddl/join-copies.js';
import { dialectNamed } from '../src/dialects/index.js';
import { onCapturingStore } from './helpers/capturing-db.js';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';
import { labelled } from './helpers/labelled.js';

class Label {
  @IsInt() orgId!: number;
  @IsString() @Length(1, 50) name!: string;
}
class Issue {
  @IsInt() orgId!: number;
  @IsString() @Length(1, 100) title!: string;
  @IsOptional() @IsISO8601() archivedAt?: string | null;
  labelIds?: number[];
}
const labelResource = defineResource({ name: 'label', model: Label, unique: ['name'] });
const issueResource = defineResource({
  name: 'issue',
  model: Issue,
  archive: 'archivedAt',
  relations: { labels: manyToMany(Label, { ids: 'labelIds' }) },
});
/** Issues that archive and their labels, under tenancy, as the API gives them to its store. */
const schemas = resourceSchemas([labelResource, issueResource], { tenancy: { field: 'orgId' } });
const [labels, issues, issueLabels] = schemas as [CollectionSchema, CollectionSchema, CollectionSchema];

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
async function mismatches(db: Kysely<any>, tables: string): Promise<unknown[]> {
  const { rows } = await sql`select j.${sql.ref('issueId')} from ${sql.table(`${tables}issue_labels`)} j
    join ${sql.table(`${tables}issues`)} i on i.id = j.${sql.ref('issueId')}
    where j.${sql.ref('orgId')} is null or j.${sql.ref('orgId')} <> i.${sql.ref('orgId')}
       or (j.${sql.ref('archivedAt')} is null) <> (i.${sql.ref('archivedAt')} is null)
       or j.${sql.ref('archivedAt')} <> i.${sql.ref('archivedAt')}`.execute(db);
  return rows;
}

/** The counts read from the join table: `count(*)` for one label (unique by name), `count(distinct …)` for several. */
const countStatements = (captured: readonly CompiledQuery[]) =>
  captured
    .map(
      (query) =>
        /count\((distinct ["`]issueId["`]|\*)\) as ["`]total["`] from ["`][^"`]*issue_labels["`]/i.exec(query.sql)?.[1],
    )
    .filter((form) => form !== undefined);

describe('a join table’s copies of its owner’s tenant and archive', () => {
  it('are columns of the join table, in the index that starts from the other side', () => {
    for (const dialect of ['sqlite', 'postgres', 'mariadb'] as const) {
      const script = schemaSql(schemas, dialect).replace(/["`]| NULLS FIRST/g, '');
      expect(script).toMatch(/issue_labels \(\n(.*\n)*\s+orgId (BIGINT|INTEGER),\n\s+archivedAt /);
      expect(script).toContain('(labelId, orgId, archivedAt, issueId)');
    }
    // A join table of an owner without tenant or archive is as it was.
    const { tenant, archive, ...plain } = issues;
    expect(schemaSql([labels, plain, issueLabels], 'sqlite')).toContain('("labelId", "issueId")');
  });

  it('migrate a join table made before them as docs/many-to-many.md shows', () => {
    const page = readFileSync(new URL('../../../docs/many-to-many.md', import.meta.url), 'utf8');
    const shown = /```sql\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
    const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
    const statements = copiesMigration(withCopies(issueLabels, issues), dialectNamed('postgres'), '');
    expect(flat(shown)).toBe(flat(statements.map((statement) => `${statement};`).join(' ')));
  });

  for (const database of ['sqlite', 'postgres', 'mariadb'] as const) {
    if (database !== 'sqlite' && !serverAvailable(database)) continue;
    it(`${database}: every write keeps them, and a label filter’s count reads the join table alone`, () =>
      onCapturingStore(database, async ({ db, captured, store, tables }) => {
        const { labelsOf, issuesOf, bug, ui } = await labelsAndIssues(store);
        const other = await labelsOf.create({ orgId: 2, name: 'bug' });
        const a = await issuesOf.create({ orgId: 1, title: 'A', labelIds: ids(bug.id, ui.id) });
        const [b] = await (issuesOf.createMany?.([
          { orgId: 1, title: 'B', labelIds: ids(bug.id) },
          { orgId: 2, title: 'C', labelIds: ids(other.id) },
        ]) ?? []);
        const d = await issuesOf.create({ orgId: 1, title: 'D' });
        await issuesOf.update(d.id, { labelIds: ids(bug.id) }, []);
        expect(await mismatches(db, tables)).toEqual([]);

        const count = async (name: string | string[], archived = false) => {
          captured.length = 0;
          const { total, records } = await issuesOf.list(labelled(1, name, { archived }));
          expect(countStatements(captured)).toEqual([Array.isArray(name) ? `distinct ${q(database, 'issueId')}` : '*']);
          return { total, ids: records.map((record) => record.id) };
        };
        expect(await count('bug')).toEqual({ total: 3, ids: [a.id, b?.id, d.id] });
        // Issue A has both: counted once.
        expect(await count(['bug', 'ui'])).toEqual({ total: 3, ids: [a.id, b?.id, d.id] });

        // An archive without the set, then one with it, then a restore.
        await issuesOf.update(a.id, { archivedAt: '2026-01-02T03:04:05.678Z' }, []);
        await issuesOf.update(d.id, { archivedAt: '2026-02-03T04:05:06.789Z', labelIds: ids(bug.id, ui.id) }, []);
        expect(await mismatches(db, tables)).toEqual([]);
        expect(await count('bug')).toEqual({ total: 1, ids: [b?.id] });
        expect(await count('ui', true)).toEqual({ total: 2, ids: [a.id, d.id] });
        await issuesOf.update(a.id, { archivedAt: null }, []);
        expect(await mismatches(db, tables)).toEqual([]);
        expect(await count('bug')).toEqual({ total: 2, ids: [a.id, b?.id] });
        // Another organization's label of the same name counts only there.
        expect((await issuesOf.list(labelled(2, 'bug'))).total).toBe(1);
        // A list with any other condition counts as before, from the issues.
        captured.length = 0;
        const titled = labelled(1, 'bug');
        const listed = await issuesOf.list({ ...titled, where: [...titled.where, { field: 'title', values: ['B'] }] });
        expect(listed.total).toBe(1);
        expect(countStatements(captured)).toEqual([]);
      }));

    if (database !== 'sqlite')
      it(`${database}: a write of the set beside a write of the row (an archive, a move) leaves the copies right`, async () => {
        const tablePrefix = `jc${Math.random().toString(36).slice(2, 8)}_`;
        const store = droppingTables(sqlStore(SERVERS[database].url, { tablePrefix }), tablePrefix);
        try {
          const { issuesOf, bug, ui } = await labelsAndIssues(store);
          const issue = await issuesOf.create({ orgId: 1, title: 'A', labelIds: ids(bug.id) });
          // Each round: the set written alone, twice, on two connections, while a third writes the row.
          for (let round = 0; round < 30; round++) {
            const archivedAt = round % 2 === 0 ? '2026-01-02T03:04:05.000Z' : null;
            await Promise.all([
              issuesOf.update(issue.id, { labelIds: round % 3 === 0 ? ids(ui.id) : ids(bug.id, ui.id) }, []),
              issuesOf.update(
                issue.id,
                round % 4 === 1 ? { orgId: 1 + (round % 8 === 1 ? 1 : 0) } : { archivedAt },
                [],
              ),
              issuesOf.update(issue.id, { labelIds: round % 3 === 1 ? ids(bug.id) : ids(ui.id) }, []),
            ]);
          }
          expect(await mismatches(store.db, tablePrefix)).toEqual([]);
        } finally {
          await store.close();
        }
      });

    it(`${database}: a join table made before them is refused at start with the statements that bring it up to date`, () =>
      onCapturingStore(database, async ({ db, store, tables }) => {
        await store.init([labels, issues]);
        for (const statement of createTableSql(issueLabels, database, { tablePrefix: tables }))
          await sql.raw(statement).execute(db);
        await sql.raw(`insert into ${tables}labels (${q(database, 'orgId')}, name) values (1, 'bug')`).execute(db);
        await sql.raw(`insert into ${tables}issues (${q(database, 'orgId')}, title) values (1, 'A')`).execute(db);
        await sql
          .raw(`insert into ${tables}issue_labels (${q(database, 'issueId')}, ${q(database, 'labelId')}) values (1, 1)`)
          .execute(db);
        store.collection(issueLabels);
        const refusal = store.init(schemas);
        await expect(refusal).rejects.toThrow(`Table "${tables}issue_labels" has no column for orgId, archivedAt`);
        const message = await refusal.catch((error: Error) => error.message);
        const statements = (message as string).split('Add them with a migration: ')[1]?.split('; ') ?? [];
        expect(statements).toHaveLength(4);
        for (const statement of statements) await sql.raw(statement).execute(db);
        await store.init(schemas);
        expect(await mismatches(db, tables)).toEqual([]);
        expect((await store.collection(issues).list(labelled(1, 'bug'))).total).toBe(1);
      }));
  }
});

/** The store's tables made, its collections of labels and issues, and two labels of organization 1. */
async function labelsAndIssues(store: SqlStoreProvider) {
  await store.init(schemas);
  const labelsOf = store.collection(labels);
  const issuesOf = store.collection(issues);
  const bug = await labelsOf.create({ orgId: 1, name: 'bug' });
  const ui = await labelsOf.create({ orgId: 1, name: 'ui' });
  return { labelsOf, issuesOf, bug, ui };
}

/** A set of ids as a record's value. */
function ids(...values: Id[]): StoredValue {
  return values as unknown as StoredValue;
}

/** A column name quoted for `database`. */
function q(database: 'sqlite' | 'postgres' | 'mariadb', name: string): string {
  return database === 'mariadb' ? `\`${name}\`` : `"${name}"`;
}
