// The tracker's listed values (an issue's `status`, a user's `role`, both `@IsIn`) are CHECKs of
// its tables: a raw write past the API is refused by the database itself.
import 'reflect-metadata';
import { compiledResource, resourceSchemas } from '@resourcery/core/adapter';
import { createTableSql, sqlStore } from '@resourcery/sql';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { issues, resources } from '../src/resources.js';

describe('the tracker tables carry the CHECKs of the listed values', () => {
  it('issues.status and users.role, named <table>_<field>_check', () => {
    const ddl = resourceSchemas(resources)
      .flatMap((schema) => createTableSql(schema, 'postgres'))
      .join('\n');
    expect(ddl).toContain(`CONSTRAINT "issues_status_check" CHECK ("status" IN ('open', 'in_progress', 'done'))`);
    expect(ddl).toContain(`CONSTRAINT "users_role_check" CHECK ("role" IN ('viewer', 'member', 'admin'))`);
    expect(compiledResource(issues).schema.attributes.find((a) => a.name === 'status')?.values).toEqual([
      'open',
      'in_progress',
      'done',
    ]);
  });

  it('refuse a raw write of another value on SQLite', async () => {
    const store = sqlStore('sqlite::memory:');
    try {
      const schemas = resourceSchemas(resources);
      for (const schema of schemas) store.collection(schema);
      await store.init(schemas);
      const users_ = schemas.find((schema) => schema.name === 'users') as (typeof schemas)[number];
      const refused = store.transaction((tx) =>
        tx.collection(users_).create({ orgId: 1, name: 'Eve', email: 'eve@example.com', role: 'owner' }),
      );
      await expect(refused).rejects.toMatchObject({ name: 'ConstraintViolation', kind: 'check', field: 'role' });
      const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where name = 'issues'`.execute(
        store.db,
      );
      expect(rows[0]?.sql).toContain('CONSTRAINT "issues_status_check"');
    } finally {
      await store.close();
    }
  });
});
