// The SQL store examples of docs/stores.md (sql-store.ts), on SQLite in memory.
import { ConflictError, createApi, defineResource } from '@resourcery/core';
import { callApi, type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

process.env.DATABASE_URL = 'sqlite::memory:';
const { app, ddl, store, transactionalBooks } = await import('./sql-store.js');
delete process.env.DATABASE_URL;

let target: HttpSuiteTarget;
beforeAll(async () => {
  target = await serveHttp(app);
});
afterAll(async () => {
  await target.close();
  await store.close();
});

describe('the SQL store of docs/stores.md', () => {
  it('serves the books from the database DATABASE_URL names', async () => {
    const created = await fetch(`${target.baseUrl}/books`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Dune', author: 'Frank Herbert' }),
    });
    expect(created.status).toBe(200);
    expect(await (await fetch(`${target.baseUrl}/books`)).json()).toEqual({
      books: [{ id: 1, name: 'Dune', author: 'Frank Herbert' }],
    });
  });

  it('gives the DDL of the books table', () => {
    expect(ddl).toMatch(
      /^CREATE TABLE IF NOT EXISTS "books" \(\n {2}"id" BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,/,
    );
  });

  it('runs a whole action in one transaction: when a hook fails after the write, nothing is stored', async () => {
    const failing = {
      ...transactionalBooks.options,
      hooks: {
        ...transactionalBooks.options.hooks,
        after: {
          create: () => {
            throw new ConflictError('refused after the write');
          },
        },
      },
    };
    const api = createApi({ resources: [defineResource(failing)], store });
    const refused = await callApi(api, { method: 'POST', path: '/books', body: { name: 'Emma', author: 'Austen' } });
    expect(refused.status).toBe(409);
    const listed = await callApi(api, { method: 'GET', path: '/books?filter[name]=Emma' });
    expect(listed.body).toEqual({ books: [] });
  });
});
