// The store of counted-store.ts runs the shared store suite, as every store does, over the
// memory store; then it counts what a request asks of it.
import { createApi, memoryStore } from '@resourcery/core';
import { callApi } from '@resourcery/testing';
import { storeConformanceSuite } from '@resourcery/testing/suites';
import { expect, it } from 'vitest';
import { books } from './book.js';
import { type Calls, countedStore } from './counted-store.js';

storeConformanceSuite('a counted memory store', () => countedStore(memoryStore()));

it('counts the calls of each collection', async () => {
  const calls: Calls = new Map();
  const api = createApi({ resources: [books], store: countedStore(memoryStore(), calls) });
  await callApi(api, { method: 'POST', path: '/books', body: { name: 'Dune', author: 'Frank Herbert' } });
  await callApi(api, { method: 'GET', path: '/books' });
  expect(calls.get('books')).toEqual({ create: 1, list: 1 });
});
