import { expect } from 'vitest';
import { type BookJson, expectFieldErrors, expectProblem, expectRecord } from '../http-client.js';
import { empty, group } from './group.js';

/** Ids that are not positive integers in plain decimal: each must be 404 like a missing record. */
export const MALFORMED_IDS = ['abc', '0', '-1', '1.5', '1e3', '0x1', '99999999999999999999'];

const DUNE = { name: 'Dune', author: 'Frank Herbert' };

/** Create: status, body shape, `Location`, wrapped bodies, id assignment. */
export const createCases = group('create', empty, {
  'create answers 200 with the whole record under "book" and a Location header': async (api) => {
    const reply = await api.json('POST', '/books', DUNE);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json\s*(;|$)/);
    expect(Object.keys(reply.body)).toEqual(['book']);
    const book = expectRecord(reply.body.book);
    expect(book).toEqual({ id: book.id, ...DUNE });
    const location = reply.headers.get('location');
    expect(location).not.toBeNull();
    expect(new URL(location as string, api.baseUrl).pathname).toBe(`${new URL(api.baseUrl).pathname}/books/${book.id}`);
    const shown = await api.get(new URL(location as string, api.baseUrl).href);
    expect(shown.body).toEqual({ book });
  },

  'create accepts the body wrapped under the singular key': async (api) => {
    const reply = await api.json('POST', '/books', { book: { name: 'Emma', author: 'Jane Austen' } });
    expect(reply.status, reply.text).toBe(200);
    const book = expectRecord(reply.body.book);
    expect(book).toMatchObject({ name: 'Emma', author: 'Jane Austen' });
    expect(await api.find(book.id)).toEqual(book);
  },

  'create stores the values exactly as sent': async (api) => {
    const values = { name: `  "Quoted" 'name' é 😀 \u00a0 <b>&amp;</b>  `, author: 'x'.repeat(500) };
    const book = await api.create(values);
    expect(book).toEqual({ id: book.id, ...values });
    expect(await api.find(book.id)).toEqual(book);
  },

  'ids are positive integers that increase': async (api) => {
    const books = await api.createAll([DUNE, DUNE, DUNE]);
    for (let i = 1; i < books.length; i++) {
      expect((books[i] as BookJson).id).toBeGreaterThan((books[i - 1] as BookJson).id);
    }
  },

  'ids are never reused after a delete': async (api) => {
    const [first, last] = await api.createAll([DUNE, DUNE]);
    // Deleting the newest record is what makes a rowid-style store hand its id out again.
    for (const book of [last, first] as BookJson[]) {
      expect((await api.send('DELETE', `/books/${book.id}`)).status).toBe(204);
    }
    const next = await api.create(DUNE);
    expect(next.id).toBeGreaterThan((last as BookJson).id);
  },
});

/** Show, update and destroy of one record, including every way of missing it. */
export const memberCases = group('show, update, destroy', empty, {
  'show answers 200 with the whole record under "book"': async (api) => {
    const book = await api.create(DUNE);
    const reply = await api.get(`/books/${book.id}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json\s*(;|$)/);
    expect(reply.body).toEqual({ book });
  },

  'update changes only the fields sent and answers the whole record': async (api) => {
    const book = await api.create(DUNE);
    const reply = await api.json('PATCH', `/books/${book.id}`, { name: 'Dune Messiah' });
    expect(reply.status, reply.text).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['book']);
    expect(reply.body.book).toEqual({ id: book.id, name: 'Dune Messiah', author: DUNE.author });
    expect(await api.find(book.id)).toEqual(reply.body.book);
    const both = await api.json('PATCH', `/books/${book.id}`, { name: 'Emma', author: 'Jane Austen' });
    expect(both.body.book).toEqual({ id: book.id, name: 'Emma', author: 'Jane Austen' });
  },

  'update accepts the body wrapped under the singular key': async (api) => {
    const book = await api.create(DUNE);
    const reply = await api.json('PATCH', `/books/${book.id}`, { book: { author: 'F. Herbert' } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.book).toEqual({ ...book, author: 'F. Herbert' });
  },

  'update with {} answers 200 with the unchanged record': async (api) => {
    const book = await api.create(DUNE);
    for (const body of [{}, { book: {} }]) {
      const reply = await api.json('PATCH', `/books/${book.id}`, body);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toEqual({ book });
    }
    expect(await api.find(book.id)).toEqual(book);
  },

  'concurrent updates of different fields of one record both take effect': async (api) => {
    const books = await api.createAll([DUNE, DUNE, DUNE, DUNE, DUNE]);
    await Promise.all(
      books.flatMap((book) => [
        api.json('PATCH', `/books/${book.id}`, { name: `name ${book.id}` }),
        api.json('PATCH', `/books/${book.id}`, { author: `author ${book.id}` }),
      ]),
    ).then((replies) => {
      for (const reply of replies) expect(reply.status, reply.text).toBe(200);
    });
    for (const book of books) {
      expect(await api.find(book.id)).toEqual({ id: book.id, name: `name ${book.id}`, author: `author ${book.id}` });
    }
  },

  'destroy answers 204 with no body and the record is gone': async (api) => {
    const book = await api.create(DUNE);
    const kept = await api.create(DUNE);
    const reply = await api.send('DELETE', `/books/${book.id}`);
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
    expectProblem(await api.get(`/books/${book.id}`), 404);
    expect(await api.find(kept.id)).toEqual(kept);
    expect(await api.list()).not.toContainEqual(book);
  },

  'destroying twice is 404 the second time': async (api) => {
    const book = await api.create(DUNE);
    expect((await api.send('DELETE', `/books/${book.id}`)).status).toBe(204);
    expectProblem(await api.send('DELETE', `/books/${book.id}`), 404);
    expectProblem(await api.json('PATCH', `/books/${book.id}`, { name: 'Back' }), 404);
  },

  'show, update and destroy answer 404 for a record that does not exist': async (api) => {
    const before = await api.count();
    const book = await api.create(DUNE);
    const deleted = await api.create(DUNE);
    await api.send('DELETE', `/books/${deleted.id}`);
    for (const id of [deleted.id, book.id + 1_000_000]) {
      expectProblem(await api.get(`/books/${id}`), 404);
      expectProblem(await api.json('PATCH', `/books/${id}`, { name: 'Emma' }), 404);
      expectProblem(await api.send('DELETE', `/books/${id}`), 404);
    }
    expect(await api.count()).toBe(before + 1);
    expect(await api.find(book.id)).toEqual(book);
  },

  'show, update and destroy answer 404 for an id that is not a positive decimal integer': async (api) => {
    // Records 1..3 probably exist, so "1.5", "1e3" or "0x1" read as numbers would find one.
    const books = await api.createAll([DUNE, DUNE, DUNE]);
    for (const id of MALFORMED_IDS) {
      expectProblem(await api.get(`/books/${id}`), 404);
      expectProblem(await api.json('PATCH', `/books/${id}`, { name: 'Emma' }), 404);
      expectProblem(await api.send('DELETE', `/books/${id}`), 404);
    }
    for (const book of books) expect(await api.find(book.id)).toEqual(book);
  },

  'update and destroy of a missing record are 404 whatever the body says': async (api) => {
    const book = await api.create(DUNE);
    const missing = book.id + 1_000_000;
    const invalid = [{ id: 3 }, { name: 1 }, { name: null }, { name: '' }, { year: 1999 }, { book: { id: 1 } }];
    for (const id of [missing, ...MALFORMED_IDS]) {
      for (const body of invalid) {
        expectProblem(await api.json('PATCH', `/books/${id}`, body), 404);
        expectProblem(await api.json('DELETE', `/books/${id}`, body), 404);
      }
    }
    // The same bodies on the existing record are refused with 422, so the 404 above came first.
    expectFieldErrors(await api.json('PATCH', `/books/${book.id}`, { id: 3 }), ['id']);
    expect(await api.find(book.id)).toEqual(book);
  },
});
