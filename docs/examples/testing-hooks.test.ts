// Testing your own hooks and steps: a context as the lifecycle builds it, and the whole API
// called in process, without a server.
import { createApi, memoryStore } from '@resourcery/core';
import { callApi, createTestContext } from '@resourcery/testing';
import { describe, expect, it } from 'vitest';
import { apiHooks, authenticate, bearerOpenApi, books } from './owned-books.js';

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

  it('the OpenAPI document declares the bearer token the hook asks for, on every operation', async () => {
    const api = createApi({ resources: [books], store: memoryStore(), hooks: apiHooks, openapi: bearerOpenApi });
    // The document needs no token; the resources do, as it says.
    const { status, body } = await callApi(api, { method: 'GET', path: '/openapi.json' });
    expect(status).toBe(200);
    const document = body as {
      security: unknown;
      components: { securitySchemes?: unknown };
      paths: Record<string, Record<string, { security?: unknown }>>;
    };
    expect(document.security).toEqual([{ bearer: [] }]);
    expect(document.components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer' } });
    const operations = Object.values(document.paths).flatMap((path) => Object.values(path));
    expect(operations.length).toBeGreaterThan(0);
    // No operation says otherwise: the root requirement applies to each.
    expect(operations.filter((operation) => operation.security !== undefined)).toEqual([]);
    const anonymous = await callApi(api, { method: 'GET', path: '/books' });
    expect([anonymous.status, anonymous.headers['WWW-Authenticate']]).toEqual([401, 'Bearer']);
  });
});
