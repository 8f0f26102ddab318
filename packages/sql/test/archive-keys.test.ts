// The index of a foreign key in a resource that archives (docs/performance.md, "The tracker at 1M
// issues"): it holds the archive before the id, so that one parent's records that are not archived
// are a range of it, read in id order, and counted from it alone; a table made before it, whose
// index lacks the archive, starts as it is. Another field's index ends with the archive.
import type { CollectionSchema, ListQuery } from '@resourcery/core/store';
import { createTableSql, sqlStore } from '@resourcery/sql';
import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { onCapturingStore } from './helpers/capturing-db.js';

const projects: CollectionSchema = {
  name: 'projects',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'orgId', type: 'integer', nullable: false },
    { name: 'name', type: 'string', nullable: false, maxLength: 100 },
  ],
  indexed: ['orgId', 'name'],
  tenant: 'orgId',
};

/** Issues of an organization's projects, that archive, as `resourceSchemas` gives them under tenancy. */
const issues: CollectionSchema = {
  name: 'issues',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'orgId', type: 'integer', nullable: false },
    { name: 'projectId', type: 'integer', nullable: false },
    { name: 'title', type: 'string', nullable: false, maxLength: 100 },
    { name: 'archivedAt', type: 'date-time', nullable: true },
  ],
  indexed: ['orgId', 'projectId', 'archivedAt'],
  references: [{ field: 'projectId', collection: 'projects', onDelete: 'restrict' }],
  tenant: 'orgId',
  archive: 'archivedAt',
};

/** The keys of the indexes `createTableSql` makes for `schema` (MySQL's inside its table), quotes left out. */
const keys = (schema: CollectionSchema, dialect: 'sqlite' | 'postgres' | 'mysql' | 'mariadb') =>
  [
    ...createTableSql(schema, dialect)
      .join('\n')
      .matchAll(/(?:INDEX|KEY) (?:IF NOT EXISTS )?["`][^"`]+["`](?: ON ["`][^"`]+["`])? \(([^)]*)\)/g),
  ].map((match) => match[1]?.replace(/["`]| NULLS FIRST/g, '') ?? '');

describe('the index of a foreign key in a resource that archives', () => {
  it('holds the archive before the id, on every database, with or without tenancy', () => {
    for (const dialect of ['sqlite', 'postgres', 'mysql', 'mariadb'] as const) {
      expect(keys(issues, dialect)).toContain('orgId, projectId, archivedAt, id');
      // Destroys of a project look for its issues, archived or not: that index stays as it was.
      expect(keys(issues, dialect)).toContain('projectId, id');
      const { tenant, ...untenanted } = issues;
      expect(keys(untenanted, dialect)).toContain('projectId, archivedAt, id');
      const { archive, ...unarchived } = issues;
      expect(keys(unarchived, dialect)).toContain('orgId, projectId, id');
      expect(keys(unarchived, dialect).join(';')).not.toContain('projectId, archivedAt');
    }
  });

  it('the index of another field ends with the archive, so that a walk of its order reads the index alone', () => {
    const titled = { ...issues, indexed: [...issues.indexed, 'title'] };
    for (const dialect of ['sqlite', 'postgres', 'mysql', 'mariadb'] as const) {
      expect(keys(titled, dialect)).toContain('orgId, title, id, archivedAt');
      const { tenant, ...untenanted } = titled;
      expect(keys(untenanted, dialect)).toContain('title, id, archivedAt');
      const { archive, ...unarchived } = titled;
      expect(keys(unarchived, dialect)).toContain('orgId, title, id');
      // The archive's own index does not end with itself.
      expect(keys(titled, dialect)).toContain('orgId, archivedAt, id');
    }
  });

  it('SQLite: a project’s page and count read that index alone; a table made before it starts as it is', () =>
    onCapturingStore('sqlite', async ({ db, captured, store, tables: prefix }) => {
      await store.init([projects, issues]);
      await db
        .insertInto(`${prefix}projects`)
        .values(Array.from({ length: 200 }, (_, n) => ({ orgId: 1 + (n % 2), name: `Project ${n >> 1}` })))
        .execute();
      // As in the tracker: a project holds one in a hundred of its organization's issues, one in 50 is archived (each at its own time).
      const rows = Array.from({ length: 20_000 }, (_, i) => ({
        orgId: 1 + (i % 2),
        projectId: 1 + (i % 200),
        title: `Issue ${i}`,
        archivedAt: i % 50 === 0 ? new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString() : null,
      }));
      for (let at = 0; at < rows.length; at += 1_000)
        await db
          .insertInto(`${prefix}issues`)
          .values(rows.slice(at, at + 1_000))
          .execute();
      await db.executeQuery(CompiledQuery.raw('analyze'));
      // Organization 1's issues of its project named "Project 3" (id 7) that are not archived.
      const query: ListQuery = {
        where: [
          { field: 'orgId', values: [1] },
          { field: 'archivedAt', values: [null] },
          {
            field: 'projectId',
            values: [],
            related: {
              collection: 'projects',
              where: [
                { field: 'name', values: ['Project 3'] },
                { field: 'orgId', values: [1] },
              ],
            },
          },
        ],
        order: [{ field: 'id', direction: 'desc' }],
        limit: 25,
        offset: 0,
        count: true,
      };
      const expected = rows
        .map((row, i) => ({ ...row, id: i + 1 }))
        .filter((row) => row.orgId === 1 && row.projectId === 7 && row.archivedAt === null);
      captured.length = 0;
      const answer = await store.collection(issues).list(query);
      expect(answer.total).toBe(expected.length);
      expect(answer.records.map((record) => record.id)).toEqual(
        expected
          .map((row) => row.id)
          .reverse()
          .slice(0, 25),
      );
      const statement = captured.find((found) => /^select/i.test(found.sql)) as CompiledQuery;
      const plan = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]),
      );
      const details = plan.rows.map((row) => row.detail);
      const table = `${prefix}issues`;
      const reads = details.filter((detail) => detail.startsWith(`SEARCH ${table} USING`));
      expect(reads, details.join('\n')).toContainEqual(
        `SEARCH ${table} USING COVERING INDEX ${table}_orgId_projectId_archivedAt_id_idx (orgId=? AND projectId=? AND archivedAt=?)`,
      );
      // The page too: not a walk of the organization's records in id order, each read for its project.
      expect(reads.filter((detail) => !detail.includes('_orgId_projectId_archivedAt_id_idx'))).toEqual([]);

      // A table made before: its index of the key lacks the archive. No drift; the same answer.
      await db.executeQuery(CompiledQuery.raw(`drop index "${table}_orgId_projectId_archivedAt_id_idx"`));
      const before = sqlStore(db, { tablePrefix: prefix });
      await expect(before.init([projects, issues])).rejects.toThrow(
        /no index \("orgId", "projectId", "archivedAt", "id"\)/,
      );
      await db.executeQuery(
        CompiledQuery.raw(`create index "${table}_old_idx" on "${table}" ("orgId", "projectId", "id")`),
      );
      await before.init([projects, issues]);
      expect((await before.collection(issues).list(query)).total).toBe(expected.length);
    }));
});
