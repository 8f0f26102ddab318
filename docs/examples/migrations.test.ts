// The migrations of docs/stores.md (migrations.ts) on a fresh SQLite file: the declared tables,
// then `add_isbn`; then the store serves them without creating anything.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApi } from '@resourcery/core';
import { callApi } from '@resourcery/testing';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { audits, books } from './audit.js';

it('creates the declared tables, then adds isbn; the API then checks and serves them', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'migrations-'));
  process.env.DATABASE_URL = `sqlite:${join(folder, 'app.sqlite')}`;
  const { store } = await import('./migrations.js');
  try {
    const columns = await sql<{ name: string }>`select name from pragma_table_info('books')`.execute(store.db);
    expect(columns.rows.map((column) => column.name)).toEqual(['id', 'title', 'isbn']);
    const ran = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
    expect(ran.rows.map((row) => row.name)).toEqual(['00000000000000_create_tables', '20240601120000_add_isbn']);
    const api = createApi({ resources: [books, audits], store });
    await api.ready();
    const created = await callApi(api, { method: 'POST', path: '/books', body: { title: 'Dune' } });
    expect(created.status).toBe(200);
  } finally {
    await store.close();
    delete process.env.DATABASE_URL;
    rmSync(folder, { recursive: true, force: true });
  }
});
