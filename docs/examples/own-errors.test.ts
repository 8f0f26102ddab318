// The errors of docs/errors.md ("Throwing your own"), as clients receive them.
import { createApi, memoryStore } from '@resourcery/core';
import { callApi } from '@resourcery/testing';
import { describe, expect, it } from 'vitest';
import { books } from './own-errors.js';

const api = createApi({ resources: [books], store: memoryStore() });
const as = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });
const create = (name: string, token = 'reader') =>
  callApi(api, { method: 'POST', path: '/books', headers: as(token), body: { name, author: 'Anyone' } });

describe('your own errors', () => {
  it('answers each with its status, code and headers', async () => {
    const anonymous = await callApi(api, { method: 'GET', path: '/books' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['WWW-Authenticate']).toBe('Bearer');
    expect(anonymous.body).toMatchObject({ code: 'unauthorized', detail: 'Sign in first' });

    const greedy = await callApi(api, { method: 'GET', path: '/books', headers: as('greedy') });
    expect(greedy.status).toBe(429);
    expect(greedy.headers['Retry-After']).toBe('10');

    expect((await create('Untitled')).body).toMatchObject({ status: 422, errors: { name: ['is not a title'] } });
    expect((await create('Dune')).body).toMatchObject({ status: 409, code: 'conflict' });

    const created = await create('Emma');
    expect(created.status).toBe(200);
    const path = '/books/1';
    expect((await callApi(api, { method: 'DELETE', path, headers: as('reader') })).status).toBe(403);
    expect((await callApi(api, { method: 'DELETE', path, headers: as('editor') })).status).toBe(204);
  });
});
