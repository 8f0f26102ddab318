import { expect } from 'vitest';
import { type BookJson, expectFieldErrors, type HttpClient } from '../http-client.js';
import { empty, group } from './group.js';

const EMMA = { name: 'Emma', author: 'Jane Austen' };

/** A stored book for update cases, and the count to compare with once the cases ran. */
async function stored(api: HttpClient): Promise<{ book: BookJson; before: number }> {
  const book = await api.create(EMMA);
  return { book, before: await api.count() };
}

/** Asserts that the failed requests of a case stored nothing and changed nothing. */
async function unchanged(api: HttpClient, { book, before }: { book: BookJson; before: number }): Promise<void> {
  expect(await api.count(), 'nothing was created').toBe(before);
  expect(await api.find(book.id), 'nothing was changed').toEqual(book);
}

/** Sends raw JSON text (so that keys like `__proto__` reach the server as written). */
function raw(api: HttpClient, method: string, path: string, text: string) {
  return api.send(method, path, { body: text });
}

/** 422 with an `errors` map for every kind of invalid field; nothing stored afterwards. */
export const validationCases = group('validation: 422', empty, {
  'a missing required field on create is 422': async (api) => {
    const state = await stored(api);
    expectFieldErrors(await api.json('POST', '/books', { name: 'Dune' }), ['author']);
    expectFieldErrors(await api.json('POST', '/books', { author: 'Frank Herbert' }), ['name']);
    expectFieldErrors(await api.json('POST', '/books', {}), ['name', 'author']);
    expectFieldErrors(await api.json('POST', '/books', { book: { name: 'Dune' } }), ['author']);
    await unchanged(api, state);
  },

  'a value of the wrong type is 422': async (api) => {
    const state = await stored(api);
    const path = `/books/${state.book.id}`;
    for (const value of [42, 1.5, true, false, [], ['Dune'], {}, { name: 'Dune' }]) {
      expectFieldErrors(await api.json('POST', '/books', { name: value, author: 'Frank Herbert' }), ['name']);
      expectFieldErrors(await api.json('PATCH', path, { author: value }), ['author']);
      expectFieldErrors(await api.json('PATCH', path, { book: { name: value } }), ['name']);
    }
    await unchanged(api, state);
  },

  'null for a required field is 422': async (api) => {
    const state = await stored(api);
    expectFieldErrors(await api.json('POST', '/books', { name: null, author: 'Frank Herbert' }), ['name']);
    expectFieldErrors(await api.json('POST', '/books', { name: null, author: null }), ['name', 'author']);
    expectFieldErrors(await api.json('PATCH', `/books/${state.book.id}`, { author: null }), ['author']);
    await unchanged(api, state);
  },

  'a string outside 1..500 characters is 422': async (api) => {
    const state = await stored(api);
    for (const value of ['', 'x'.repeat(501), '😀'.repeat(501)]) {
      expectFieldErrors(await api.json('POST', '/books', { name: value, author: 'Frank Herbert' }), ['name']);
      expectFieldErrors(await api.json('PATCH', `/books/${state.book.id}`, { author: value }), ['author']);
    }
    await unchanged(api, state);
  },

  'strings of 1 and 500 characters are accepted': async (api) => {
    for (const value of ['x', 'x'.repeat(500), '😀'.repeat(500)]) {
      const book = await api.create({ name: value, author: value });
      expect(book).toEqual({ id: book.id, name: value, author: value });
      const reply = await api.json('PATCH', `/books/${book.id}`, { name: value });
      expect(reply.status, reply.text).toBe(200);
    }
  },

  'an unknown field is 422': async (api) => {
    const state = await stored(api);
    expectFieldErrors(await api.json('POST', '/books', { ...EMMA, year: 1815 }), ['year']);
    expectFieldErrors(await api.json('POST', '/books', { ...EMMA, Name: 'Emma' }), ['Name']);
    expectFieldErrors(await api.json('PATCH', `/books/${state.book.id}`, { year: 1815 }), ['year']);
    expectFieldErrors(await api.json('PATCH', `/books/${state.book.id}`, { book: { ...EMMA, isbn: 'x' } }), ['isbn']);
    await unchanged(api, state);
  },

  'id in the body is 422': async (api) => {
    const state = await stored(api);
    const path = `/books/${state.book.id}`;
    expectFieldErrors(await api.json('POST', '/books', { ...EMMA, id: 999 }), ['id']);
    expectFieldErrors(await api.json('POST', '/books', { book: { ...EMMA, id: 999 } }), ['id']);
    expectFieldErrors(await api.json('PATCH', path, { id: 999 }), ['id']);
    expectFieldErrors(await api.json('PATCH', path, { id: state.book.id, name: 'Dune' }), ['id']);
    expectFieldErrors(await api.json('PATCH', path, { book: { id: 999 } }), ['id']);
    await unchanged(api, state);
  },

  '__proto__ and constructor keys are 422': async (api) => {
    const state = await stored(api);
    const path = `/books/${state.book.id}`;
    const valid = JSON.stringify(EMMA).slice(1, -1);
    for (const key of ['__proto__', 'constructor']) {
      for (const value of ['{"name":"x"}', '{}', '"x"', 'null', '{"prototype":{"polluted":true}}']) {
        expectFieldErrors(await raw(api, 'POST', '/books', `{${valid},"${key}":${value}}`), [key]);
        expectFieldErrors(await raw(api, 'POST', '/books', `{"book":{${valid},"${key}":${value}}}`), [key]);
        expectFieldErrors(await raw(api, 'PATCH', path, `{"${key}":${value}}`), [key]);
        expectFieldErrors(await raw(api, 'PATCH', path, `{"name":"Dune","${key}":${value}}`), [key]);
      }
    }
    expectFieldErrors(await raw(api, 'PATCH', path, '{"__proto__":{"name":"Dune"}}'), ['__proto__']);
    await unchanged(api, state);
    // The server's own objects were not polluted: it still answers normally.
    expect((await api.json('POST', '/books', EMMA)).body.book).not.toHaveProperty('polluted');
  },

  'NUL characters and lone surrogates are 422 in every store': async (api) => {
    const state = await stored(api);
    // JSON escapes: the texts reach the server intact, whatever the client's own encoding.
    for (const name of ['\\u0000', 'a\\u0000b', 'x\\ud800', '\\udc00y']) {
      expectFieldErrors(await raw(api, 'POST', '/books', `{"name":"${name}","author":"A"}`), ['name']);
      expectFieldErrors(await raw(api, 'PATCH', `/books/${state.book.id}`, `{"name":"${name}"}`), ['name']);
    }
    await unchanged(api, state);
  },

  'errors maps every offending field to its messages': async (api) => {
    const state = await stored(api);
    const body = { name: 42, author: null, year: 1815, id: 3 };
    expectFieldErrors(await api.json('POST', '/books', body), ['name', 'author', 'year', 'id']);
    expectFieldErrors(await api.json('POST', '/books', { name: '', year: 1 }), ['name', 'author', 'year']);
    expectFieldErrors(await api.json('PATCH', `/books/${state.book.id}`, body), ['name', 'author', 'year', 'id']);
    await unchanged(api, state);
  },
});
