// The audit row commits with the book, and a failure after the book was written leaves neither,
// on the memory store and on SQLite.
import { createApi, memoryStore } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import { callApi } from '@resourcery/testing';
import { describe, expect, it } from 'vitest';
import { audits, books } from './audit.js';

const stores: Record<string, () => Store> = {
  memory: () => memoryStore(),
  SQLite: () => sqlStore('sqlite::memory:'),
};

describe.each(Object.entries(stores))('audit in the same transaction (%s)', (_name, makeStore) => {
  async function serve(failAfterWrite = false) {
    const store = makeStore();
    const api = createApi({
      resources: [books, audits],
      store,
      // An API hook that fails after the step's transaction: proves that a failure inside it undoes both.
      hooks: failAfterWrite
        ? {
            around: {
              create: (ctx, next) =>
                ctx.transaction(async () => {
                  await next();
                  throw new Error('the outbox is down');
                }),
            },
          }
        : undefined,
      logError: () => {},
    });
    const get = async (path: string) => (await callApi(api, { method: 'GET', path })).body;
    return { api, get, close: () => api.close() };
  }

  it('writes the audit row with the book', async () => {
    const { api, get, close } = await serve();
    const created = await callApi(api, { method: 'POST', path: '/books', body: { title: 'Dune' } });
    expect(created.status).toBe(200);
    const { book } = created.body as { book: { id: number } };
    const { audits: rows } = (await get('/audits')) as { audits: { action: string; bookId: number }[] };
    expect(rows).toMatchObject([{ action: 'create', bookId: book.id }]);
    await close();
  });

  it('keeps neither when the work fails after both were written', async () => {
    const { api, get, close } = await serve(true);
    const created = await callApi(api, { method: 'POST', path: '/books', body: { title: 'Dune' } });
    expect(created.status).toBe(500);
    expect(await get('/books')).toEqual({ books: [] });
    expect(await get('/audits')).toEqual({ audits: [] });
    await close();
  });
});
