// The allow-lists and settings of docs/customization.md, as a client meets them.
import { createApi, memoryStore } from '@resourcery/core';
import { callApi } from '@resourcery/testing';
import { describe, expect, it } from 'vitest';
import { books } from './settings.js';

const api = createApi({ resources: [books], store: memoryStore() });
const get = (path: string) => callApi(api, { method: 'GET', path });

describe('allow-lists and settings', () => {
  it('takes on create only the create fields, and changes on update only the update ones', async () => {
    const created = await callApi(api, { method: 'POST', path: '/books', body: { name: 'Dune', author: 'Herbert' } });
    expect(created.body).toEqual({ book: { id: 1, name: 'Dune', author: 'Herbert' } });
    const update = await callApi(api, { method: 'PATCH', path: '/books/1', body: { author: 'F. Herbert' } });
    expect(update.status).toBe(422);
    expect(update.body).toMatchObject({ errors: { author: ['cannot be changed'] } });
    const owner = await callApi(api, { method: 'POST', path: '/books', body: { name: 'X', author: 'Y', ownerId: 2 } });
    expect(owner.body).toMatchObject({ errors: { ownerId: ['is read-only'] } });
  });

  it('filters and sorts only on the listed fields, newest first, without counting', async () => {
    await callApi(api, { method: 'POST', path: '/books', body: { name: 'Emma', author: 'Austen' } });
    const index = await get('/books?filter[author]=Austen');
    expect(index.body).toEqual({ books: [expect.objectContaining({ name: 'Emma' })] });
    expect(index.headers['X-Total-Count']).toBeUndefined();
    expect((await get('/books?count=true')).headers['X-Total-Count']).toBe('2');
    expect((await get('/books')).body).toMatchObject({ books: [{ name: 'Emma' }, { name: 'Dune' }] });
    expect((await get('/books?filter[name]=Emma')).status).toBe(400);
    expect((await get('/books?sort=author')).status).toBe(400);
  });

  it('pages by 10, at most 50', async () => {
    expect((await get('/books?per_page=50')).status).toBe(200);
    expect((await get('/books?per_page=51')).status).toBe(400);
  });
});
