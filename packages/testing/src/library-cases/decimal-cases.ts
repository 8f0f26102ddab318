import { expect } from 'vitest';
import { empty, group } from '../http-cases/group.js';
import { expectProblem } from '../http-client.js';
import { type BookJson, createAuthor, createBook, createBooks, expectErrors, list, total } from './library-fixtures.js';

// CONTRACT part 3, "Types on the wire": decimal (book.price, 2 places).

export const decimalCases = group('decimal', empty, {
  async 'decimal: answered as a string with exactly 2 places, from a number or a string'(api) {
    const author = await createAuthor(api);
    const sent: readonly (readonly [unknown, string])[] = [
      [12.5, '12.50'],
      ['12.5', '12.50'],
      ['12.50', '12.50'],
      [10, '10.00'],
      ['10', '10.00'],
      [0, '0.00'],
      ['0.1', '0.10'],
      [9.99, '9.99'],
      ['1234567.89', '1234567.89'],
    ];
    for (const [input, expected] of sent) {
      const book = await createBook(api, author.id, { price: input });
      expect(book.price, JSON.stringify(input)).toBe(expected);
      expect((await api.get(`/books/${book.id}`)).body.book.price).toBe(expected);
    }
    const listed = await list<BookJson>(api, `/books?filter[authorId]=${author.id}&sort=id&per_page=100`);
    expect(listed.map((book) => book.price)).toEqual(sent.map(([, expected]) => expected));
  },

  async 'decimal: more than 2 places is 422, never rounded, on create and update'(api) {
    const author = await createAuthor(api);
    const kept = await createBook(api, author.id, { price: '5.00' });
    for (const value of ['12.345', 12.345, '0.001', 1.005, '9.999']) {
      const created = await api.json('POST', '/books', { title: 'Too precise', authorId: author.id, price: value });
      expectErrors(created, { price: expect.any(Array) });
      const updated = await api.json('PATCH', `/books/${kept.id}`, { price: value });
      expectErrors(updated, { price: expect.any(Array) });
    }
    expect(await total(api, `/books?filter[authorId]=${author.id}`)).toBe(1);
    expect((await api.get(`/books/${kept.id}`)).body.book).toEqual(kept);
  },

  async 'decimal: a JSON number is judged on the text sent: more places is 422 though a double rounds them away'(api) {
    const author = await createAuthor(api);
    const kept = await createBook(api, author.id, { price: '5.00' });
    const body = (price: string) => `{"title": "Too precise", "authorId": ${author.id}, "price": ${price}}`;
    for (const text of [
      '19.999999999999999',
      '0.1000000000000000055511151231257827',
      '12.345',
      '0.001',
      '1e-400',
      '1E-7',
    ]) {
      const created = await api.send('POST', '/books', { body: body(text) });
      const updated = await api.send('PATCH', `/books/${kept.id}`, { body: `{"book": {"price": ${text}}}` });
      // The same answer as for the digits sent as a string ("1e-400" as a string is no decimal at all).
      const asString = /e/i.test(text) ? '0.001' : text;
      const expected = expectProblem(await api.send('POST', '/books', { body: body(`"${asString}"`) }), 422).errors;
      expect(expected).toEqual({ price: [expect.stringContaining('2 decimal places')] });
      expectErrors(created, expected);
      expectErrors(updated, expected);
    }
    expect(await total(api, `/books?filter[authorId]=${author.id}`)).toBe(1);
    expect((await api.get(`/books/${kept.id}`)).body.book).toEqual(kept);
  },

  async 'decimal: a JSON number is kept exactly as sent, exponent forms and 15 digits included'(api) {
    const author = await createAuthor(api);
    const sent: readonly (readonly [string, string])[] = [
      ['1234567890123.45', '1234567890123.45'],
      ['-9999999999999.99', '-9999999999999.99'],
      ['1.5e1', '15.00'],
      ['125E-2', '1.25'],
      ['5e-2', '0.05'],
      ['1e12', '1000000000000.00'],
      ['-0', '0.00'],
      ['12.500', '12.50'],
    ];
    for (const [text, expected] of sent) {
      const reply = await api.send('POST', '/books', {
        body: `{"title": "Exact", "authorId": ${author.id}, "price": ${text}}`,
      });
      expect(reply.status, `${text}: ${reply.text}`).toBe(200);
      expect(reply.body.book.price, text).toBe(expected);
      expect((await api.get(`/books/${reply.body.book.id}`)).body.book.price, text).toBe(expected);
    }
    for (const text of ['1e13', '12345678901234.5', '1e400']) {
      const reply = await api.send('POST', '/books', {
        body: `{"title": "Too long", "authorId": ${author.id}, "price": ${text}}`,
      });
      expectErrors(reply, { price: ['must have at most 13 digits before the decimal point'] });
    }
  },

  async 'decimal: a value that is no decimal is 422'(api) {
    const author = await createAuthor(api);
    for (const value of ['abc', '', '1.2.3', '12,50', true, {}, [1]]) {
      const created = await api.json('POST', '/books', { title: 'Not a price', authorId: author.id, price: value });
      expectErrors(created, { price: expect.any(Array) });
    }
    expect(await total(api, `/books?filter[authorId]=${author.id}`)).toBe(0);
  },

  async 'decimal: a filter value may have fewer places ("10"); more places or no number is 400'(api) {
    const author = await createAuthor(api);
    const [ten, cheap] = await createBooks(api, author.id, [{ price: '10.00' }, { price: 9.99 }, { price: null }]);
    const base = `/books?filter[authorId]=${author.id}`;
    for (const value of ['10', '10.0', '10.00']) {
      expect(await list(api, `${base}&filter[price]=${value}`), value).toEqual([ten]);
    }
    const either = await list<BookJson>(api, `${base}&filter[price][]=10&filter[price][]=9.99&sort=id`);
    expect(either).toEqual([ten, cheap]);
    for (const value of ['10.001', 'ten', '1e1', '']) {
      expect(expectProblem(await api.get(`/books?filter[price]=${value}`), 400).detail).toContain('price');
    }
  },

  async 'decimal: sorts numerically (9.99 < 10.00 < 100.00); null first ascending, last descending'(api) {
    const author = await createAuthor(api);
    const books = await createBooks(api, author.id, [
      { price: '100.00' },
      { price: null },
      { price: 9.99 },
      { price: '10' },
      {},
      { price: 2 },
      { price: '10.5' },
    ]);
    const byPrice = (prices: readonly (string | null)[]) =>
      prices.map((price) => books.filter((b) => b.price === price));
    const base = `/books?filter[authorId]=${author.id}&per_page=100`;
    const ascending = await list<BookJson>(api, `${base}&sort=price`);
    expect(ascending.map((book) => book.price)).toEqual([null, null, '2.00', '9.99', '10.00', '10.50', '100.00']);
    // Books of equal price (the two without one) follow the id tie-breaker.
    expect(ascending).toEqual(byPrice([null, '2.00', '9.99', '10.00', '10.50', '100.00']).flat());
    const descending = await list<BookJson>(api, `${base}&sort=-price`);
    expect(descending).toEqual(byPrice(['100.00', '10.50', '10.00', '9.99', '2.00', null]).flat());
  },
});
