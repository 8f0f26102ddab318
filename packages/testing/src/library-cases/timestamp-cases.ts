import { expect } from 'vitest';
import { empty, group } from '../http-cases/group.js';
import { enc } from '../http-client.js';
import {
  type AuthorJson,
  type BookJson,
  createAuthor,
  createBook,
  createReview,
  expectErrors,
  list,
  show,
  tick,
  total,
} from './library-fixtures.js';

// CONTRACT part 3: `createdAt` / `updatedAt` are set by the server and read-only.

const TIME = '2020-01-01T00:00:00.000Z';

export const timestampCases = group('timestamps', empty, {
  async 'timestamps: the server sets createdAt and updatedAt on create (review: createdAt only)'(api) {
    const author = await createAuthor(api, { name: 'Ursula', country: 'US' });
    expect(author).toEqual({
      id: author.id,
      name: 'Ursula',
      country: 'US',
      createdAt: author.createdAt,
      updatedAt: author.updatedAt,
    });
    expect(author.updatedAt >= author.createdAt).toBe(true);
    expect(await show(api, `/authors/${author.id}`, 'author')).toEqual(author);
    const book = await createBook(api, author.id, { title: 'Earthsea' });
    expect(book).toEqual({
      id: book.id,
      title: 'Earthsea',
      authorId: author.id,
      year: null,
      isbn: null,
      price: null,
      publishedAt: null,
      createdAt: book.createdAt,
      updatedAt: book.updatedAt,
    });
    const review = await createReview(api, book.id);
    expect(review).not.toHaveProperty('updatedAt');
  },

  async 'timestamps: sending createdAt or updatedAt is 422 (read-only), nothing written'(api) {
    const author = await createAuthor(api);
    const book = await createBook(api, author.id);
    const review = await createReview(api, book.id);
    const authors = await total(api, '/authors');
    for (const field of ['createdAt', 'updatedAt']) {
      expectErrors(await api.json('POST', '/authors', { name: 'Late', [field]: TIME }), { [field]: expect.any(Array) });
      const body = { title: 'Late', authorId: author.id, [field]: TIME };
      expectErrors(await api.json('POST', '/books', body), { [field]: expect.any(Array) });
      const wrapped = { author: { name: 'Wrapped', [field]: TIME } };
      expectErrors(await api.json('POST', '/authors', wrapped), { [field]: expect.any(Array) });
      const changes = { name: 'Renamed', [field]: TIME };
      expectErrors(await api.json('PATCH', `/authors/${author.id}`, changes), { [field]: expect.any(Array) });
      expectErrors(await api.json('PATCH', `/books/${book.id}`, { [field]: null }), { [field]: expect.any(Array) });
      expectErrors(await api.json('PATCH', `/reviews/${review.id}`, { [field]: TIME }), { [field]: expect.any(Array) });
    }
    expectErrors(await api.json('POST', '/reviews', { bookId: book.id, rating: 1, createdAt: TIME }), {
      createdAt: expect.any(Array),
    });
    expect(await total(api, '/authors')).toBe(authors);
    expect(await total(api, `/books?filter[authorId]=${author.id}`)).toBe(1);
    expect(await total(api, `/reviews?filter[bookId]=${book.id}`)).toBe(1);
    expect(await show(api, `/authors/${author.id}`, 'author')).toEqual(author);
    expect(await show(api, `/books/${book.id}`, 'book')).toEqual(book);
  },

  async 'timestamps: an update that changes something moves updatedAt; createdAt stays'(api) {
    const author = await createAuthor(api, { country: null });
    await tick();
    const reply = await api.json('PATCH', `/authors/${author.id}`, { country: 'UK' });
    expect(reply.status, reply.text).toBe(200);
    const changed = reply.body.author as AuthorJson;
    expect(changed).toEqual({ ...author, country: 'UK', updatedAt: changed.updatedAt });
    expect(Date.parse(changed.updatedAt)).toBeGreaterThan(Date.parse(author.updatedAt));
    expect(await show(api, `/authors/${author.id}`, 'author')).toEqual(changed);

    const book = await createBook(api, author.id, { price: '1.00' });
    await tick();
    const repriced = (await api.json('PATCH', `/books/${book.id}`, { price: 2 })).body.book as BookJson;
    expect(repriced).toEqual({ ...book, price: '2.00', updatedAt: repriced.updatedAt });
    expect(Date.parse(repriced.updatedAt)).toBeGreaterThan(Date.parse(book.updatedAt));
  },

  async 'timestamps: an update that changes nothing keeps updatedAt (also for equal values written differently)'(api) {
    const author = await createAuthor(api, { country: 'FR' });
    const book = await createBook(api, author.id, { price: '12.50', publishedAt: '2024-05-01T12:00:00Z', year: 1968 });
    await tick();
    const same: readonly [string, Record<string, unknown>, unknown][] = [
      [`/authors/${author.id}`, {}, author],
      [`/authors/${author.id}`, { name: author.name, country: 'FR' }, author],
      [`/authors/${author.id}`, { author: { country: 'FR' } }, author],
      [`/books/${book.id}`, { price: 12.5, year: 1968 }, book],
      [`/books/${book.id}`, { price: '12.5', publishedAt: '2024-05-01T14:00:00+02:00' }, book],
      [`/books/${book.id}`, { publishedAt: '2024-05-01T12:00:00.000Z', isbn: null }, book],
    ];
    for (const [path, body, record] of same) {
      const reply = await api.json('PATCH', path, body);
      expect(reply.status, reply.text).toBe(200);
      expect(Object.values(reply.body)[0], `PATCH ${path} ${JSON.stringify(body)}`).toEqual(record);
    }
    expect(await show(api, `/books/${book.id}`, 'book')).toEqual(book);
  },

  async 'timestamps: createdAt filters and sorts like any date-time'(api) {
    const author = await createAuthor(api);
    const first = await createBook(api, author.id);
    await tick();
    const second = await createBook(api, author.id);
    const base = `/books?filter[authorId]=${author.id}`;
    expect(await list<BookJson>(api, `${base}&sort=createdAt`)).toEqual([first, second]);
    expect(await list<BookJson>(api, `${base}&sort=-createdAt`)).toEqual([second, first]);
    // The same instant, written as local time one hour east of UTC.
    const offset = new Date(Date.parse(second.createdAt) + 3_600_000).toISOString().replace('Z', '+01:00');
    expect(await list<BookJson>(api, `${base}&filter[createdAt]=${enc(offset)}`)).toEqual([second]);
    expect(await list<BookJson>(api, `${base}&filter[updatedAt]=${enc(first.updatedAt)}`)).toEqual([first]);
  },
});
