// Testing your own hooks and steps: a context as the lifecycle builds it, and the whole API
// called in process, without a server.
import { createApi, memoryStore } from '@resourcery/core';
import { callApi, createTestContext } from '@resourcery/testing';
import { describe, expect, it } from 'vitest';
import { apiHooks, authenticate, books } from './owned-books.js';

describe('owned books', () => {
  it('the API-wide hook turns a token into the current user', async () => {
    const ctx = createTestContext(books, 'index', { headers: { authorization: 'Bearer alice' } });
    await authenticate(ctx);
    expect(ctx.state.user).toEqual({ id: 1, name: 'Alice' });
  });

  it('a user sees only their own books, with the owner rendered', async () => {
    const api = createApi({ resources: [books], store: memoryStore(), hooks: apiHooks });
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    const body = { name: 'Dune', author: 'Herbert' };
    await callApi(api, { method: 'POST', path: '/books', headers: as('alice'), body });
    const mine = await callApi(api, { method: 'GET', path: '/books', headers: as('alice') });
    expect(mine.body).toEqual({ books: [{ id: 1, name: 'Dune', author: 'Herbert', owner: 'Alice' }] });
    const theirs = await callApi(api, { method: 'GET', path: '/books/1', headers: as('bob') });
    expect(theirs.status).toBe(404);
  });
});
