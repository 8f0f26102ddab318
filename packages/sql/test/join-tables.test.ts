// The join table of a many-to-many relation is made like any other: by `init`, by the
// migrations of `resourceSchemas` (the same table, catalog against catalog), and the drift check
// at start names what an existing one lacks.
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApi, defineResource, manyToMany } from '@resourcery/core';
import { resourceSchemas } from '@resourcery/core/adapter';
import type { CollectionSchema } from '@resourcery/core/store';
import { createTableSql, schemaSql } from '@resourcery/sql';
import { callApi } from '@resourcery/testing';
import { IsString, Length } from 'class-validator';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from './helpers/databases.js';
import { migratedBesideMade } from './helpers/migrated-tables.js';

class Label {
  @IsString() @Length(1, 50) name!: string;
}
class Issue {
  @IsString() @Length(1, 200) title!: string;
  labelIds?: number[];
}

const labels = defineResource({ name: 'label', model: Label });
const issues = defineResource({
  name: 'issue',
  model: Issue,
  relations: { labels: manyToMany(Label, { ids: 'labelIds' }) },
});
const resources = [issues, labels];

const folder = mkdtempSync(join(tmpdir(), 'resourcery-join-tables-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the join table of a many-to-many relation', () => {
  it('is among the schemas of resourceSchemas: issue_labels, two cascading keys, unique both ways round', () => {
    const schemas = resourceSchemas(resources);
    expect(schemas.map((schema) => schema.name)).toEqual(['issues', 'labels', 'issue_labels']);
    expect(schemas[0]?.sets).toEqual([
      { field: 'labelIds', through: 'issue_labels', key: 'issueId', value: 'labelId' },
    ]);
    const script = schemaSql(schemas, 'postgres', { tablePrefix: 'api_' });
    expect(script).toContain('CREATE TABLE IF NOT EXISTS "api_issue_labels"');
    expect(script).toMatch(/FOREIGN KEY \("issueId"\) REFERENCES "api_issues" \("id"\) ON DELETE CASCADE/);
    expect(script).toMatch(/FOREIGN KEY \("labelId"\) REFERENCES "api_labels" \("id"\) ON DELETE CASCADE/);
    expect(script).toMatch(/UNIQUE INDEX IF NOT EXISTS "api_issue_labels_issueId_labelId_key"/);
    expect(script).toMatch(/"api_issue_labels_labelId_issueId_idx" ON "api_issue_labels" \("labelId", "issueId"\)/);
  });

  for (const database of testDatabases(folder)) {
    describe(database.label, () => {
      it('migrations make the join table the store makes; the API starts on it and writes through it', async () => {
        await migratedBesideMade(database, resources, async ({ api }) => {
          const label = await callApi(api, { method: 'POST', path: '/labels', body: { name: 'bug' } });
          const id = (label.body as { label: { id: number } }).label.id;
          const issue = await callApi(api, { method: 'POST', path: '/issues', body: { title: 'T', labelIds: [id] } });
          expect((issue.body as { issue: unknown }).issue).toMatchObject({ title: 'T', labelIds: [id] });
          expect((await callApi(api, { method: 'DELETE', path: `/labels/${id}` })).status).toBe(204);
          const after = await callApi(api, { method: 'GET', path: '/issues/1' });
          expect((after.body as { issue: unknown }).issue).toMatchObject({ labelIds: [] });
        });
      });

      it('a join table without its keys is refused at start, naming each', async () => {
        const { store, tablePrefix } = database.open();
        const [issueSchema, labelSchema, joinSchema] = resourceSchemas(resources) as CollectionSchema[];
        try {
          const bare: CollectionSchema = {
            ...(joinSchema as CollectionSchema),
            indexes: [],
            references: (joinSchema?.references ?? []).filter((key) => key.field === 'issueId'),
          };
          for (const schema of [labelSchema, issueSchema, joinSchema] as CollectionSchema[]) store.collection(schema);
          await store.init([labelSchema, issueSchema] as CollectionSchema[]);
          for (const statement of createTableSql(bare, store.dialect, { tablePrefix })) {
            await sql.raw(statement).execute(store.db);
          }
          const refusal = createApi({ resources, store }).ready();
          await expect(refusal).rejects.toThrow(`Table "${tablePrefix}issue_labels" does not match`);
          await expect(refusal).rejects.toThrow(`no foreign key "labelId" → ${tablePrefix}labels.id ON DELETE CASCADE`);
        } finally {
          await store.close();
        }
      });
    });
  }
});
