// docs/deployment.md's retries example on SQLite: the options are taken, the hook's mail goes
// out once per book, and a serializable transaction commits. (The conflicts themselves, and the
// retries they cause, are provoked on PostgreSQL and MariaDB in packages/sql/test/retries*.test.ts.)
import { createApi } from '@resourcery/core';
import { resourceSchemas } from '@resourcery/core/adapter';
import type { CollectionSchema, StoreRetry } from '@resourcery/core/store';
import { callApi } from '@resourcery/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { books, outbox, serializable, store } from './retries.js';

describe('retries (SQLite)', () => {
  const api = createApi({ resources: [books], store });
  afterAll(() => api.close());

  it('sends the mail of each book of a bulk create once', async () => {
    const body = {
      books: [
        { name: 'Dune', author: 'Herbert' },
        { name: 'Emma', author: 'Austen' },
      ],
    };
    const created = await callApi(api, { method: 'POST', path: '/books', body });
    expect(created.status).toBe(200);
    expect(outbox).toEqual(['Dune is in the catalogue', 'Emma is in the catalogue']);
  });

  it('runs a serializable transaction', async () => {
    const retries: StoreRetry[] = [];
    const [schema] = resourceSchemas([books]) as [CollectionSchema];
    const book = await serializable((tx) => tx.collection(schema).create({ name: 'Kim', author: 'Kipling' }), retries);
    expect(await store.collection(schema).find(book.id, [])).toMatchObject({ name: 'Kim' });
    expect(retries).toEqual([]);
  });
});
