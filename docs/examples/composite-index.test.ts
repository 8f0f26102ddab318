// The indexes of composite-index.ts: which attributes get one, and the declared composite index
// serving an author's books in year order without a sort (SQLite's plan says so).
import { createApi } from '@resourcery/core';
import { resourceSchemas } from '@resourcery/core/adapter';
import { sqlStore } from '@resourcery/sql';
import { callApi } from '@resourcery/testing';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { authors, books } from './composite-index.js';

it('indexes short attributes, not long text, and the declared (authorId, year DESC, id)', () => {
  const [, schema] = resourceSchemas([authors, books]);
  expect(schema?.indexed).toEqual(['title', 'authorId', 'year']);
  expect(schema?.indexes).toEqual([
    [
      { field: 'authorId', direction: 'asc' },
      { field: 'year', direction: 'desc' },
      { field: 'id', direction: 'asc' },
    ],
  ]);
});

it("answers an author's books latest first from the index alone, long summaries included", async () => {
  const store = sqlStore('sqlite::memory:');
  const api = createApi({ resources: [authors, books], store });
  try {
    await api.ready();
    const post = (path: string, body: unknown) => callApi(api, { method: 'POST', path, body });
    expect((await post('/authors', { name: 'Le Guin' })).status).toBe(200);
    for (const year of [1969, 1974, null, 1971]) {
      expect(
        (await post('/books', { title: `Book ${year}`, authorId: 1, year, summary: 'x'.repeat(20000) })).status,
      ).toBe(200);
    }
    const page = await callApi(api, { method: 'GET', path: '/books?filter[authorId]=1&sort=-year&fields=year' });
    expect((page.body as { books: { year: number | null }[] }).books.map((book) => book.year)).toEqual([
      1974,
      1971,
      1969,
      null,
    ]);
    const { rows } = await sql<{ detail: string }>`EXPLAIN QUERY PLAN
      select * from "books" where "authorId" = ${1} order by "year" desc, "id" asc limit 25`.execute(store.db);
    expect(rows.map((row) => row.detail)).toEqual([
      'SEARCH books USING INDEX books_authorId_year_desc_id_idx (authorId=?)',
    ]);
  } finally {
    await store.close();
  }
});
