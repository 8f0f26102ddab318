import { memoryStore } from '@resourcery/core';
import { createListener } from '@resourcery/node';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type authors, type books, library, type reviews } from '../../../test-support/library-resources.js';
import { indexQueryString, ResourceError, resourceClient } from '../src/index.js';

// The typed client against related resources (CONTRACT part 3) served from a memory store over
// real HTTP: uuid ids, server-set timestamps, decimals, `include`, and the relational errors.

let target: HttpSuiteTarget;
let clients: {
  authors: ReturnType<typeof resourceClient<typeof authors>>;
  books: ReturnType<typeof resourceClient<typeof books>>;
  reviews: ReturnType<typeof resourceClient<typeof reviews>>;
};

beforeAll(async () => {
  target = await serveHttp(createListener({ resources: [...library], store: memoryStore(), basePath: '/api' }));
  const baseUrl = target.baseUrl;
  clients = {
    authors: resourceClient<typeof authors>({ baseUrl, name: 'author' }),
    books: resourceClient<typeof books>({ baseUrl, name: 'book' }),
    reviews: resourceClient<typeof reviews>({ baseUrl, name: 'review' }),
  };
});
afterAll(() => target.close());

async function failure(call: Promise<unknown>): Promise<ResourceError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ResourceError);
  return error as ResourceError;
}

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An author with one book and two reviews of it. */
async function seed(name: string) {
  const author = await clients.authors.create({ name, country: 'UK' });
  const book = await clients.books.create({
    title: `${name}'s first`,
    authorId: author.id,
    price: '12.5',
    publishedAt: '1968-11-01T09:00:00+01:00',
  });
  const first = await clients.reviews.create({ bookId: book.id, rating: 5 });
  const second = await clients.reviews.create({ bookId: book.id, rating: 3, body: 'Slow start' });
  return { author, book, reviews: [first, second] };
}

describe('records of related resources', () => {
  it('come with server-set ids and timestamps, decimals and date-times in canonical form', async () => {
    const { author, book, reviews } = await seed('Le Guin');
    expect(author).toEqual({
      id: expect.any(Number),
      name: 'Le Guin',
      country: 'UK',
      createdAt: expect.stringMatching(TIMESTAMP),
      updatedAt: author.createdAt,
    });
    expect(book).toMatchObject({ price: '12.50', publishedAt: '1968-11-01T08:00:00.000Z', isbn: null, year: null });
    expect(reviews[0]?.id).toMatch(UUID);
    expect(reviews[0]).not.toHaveProperty('updatedAt');
  });

  it('are shown, changed and destroyed by uuid', async () => {
    const { reviews } = await seed('Herbert');
    const review = reviews[1] as NonNullable<(typeof reviews)[1]>;
    expect(await clients.reviews.show(review.id)).toEqual(review);
    expect(await clients.reviews.show(review.id.toUpperCase())).toEqual(review);
    expect(await clients.reviews.update(review.id, { rating: 4 })).toEqual({ ...review, rating: 4 });
    await clients.reviews.destroy(review.id);
    expect((await failure(clients.reviews.show(review.id))).status).toBe(404);
  });
});

describe('include', () => {
  it('adds a belongs-to as the record, and a has-many as the records ordered by id', async () => {
    const { author, book, reviews } = await seed('Banks');
    const shown = await clients.books.show(book.id, { include: ['author', 'reviews'] });
    expect(shown).toEqual({ ...book, author, reviews: [...reviews].sort((a, b) => (a.id < b.id ? -1 : 1)) });
    const withBooks = await clients.authors.show(author.id, { include: ['books'] });
    expect(withBooks.books).toEqual([book]);
    expect(await clients.books.show(book.id)).toEqual(book);
  });

  it('works on index and each, for every record of the page', async () => {
    const { author, book } = await seed('Atwood');
    const { records } = await clients.books.index({ filter: { authorId: author.id }, include: ['author'] });
    expect(records).toEqual([{ ...book, author }]);
    const seen = [];
    for await (const review of clients.reviews.each({ filter: { bookId: book.id }, include: ['book'], perPage: 1 })) {
      seen.push(review.book);
    }
    expect(seen).toEqual([book, book]);
  });

  it('is sent as include=a,b, and an unknown relation is a 400 naming it', async () => {
    expect(indexQueryString({ include: ['author', 'reviews'], perPage: 5 })).toBe('per_page=5&include=author,reviews');
    expect(indexQueryString({ include: [] })).toBe('');
    const { book } = await seed('Pratchett');
    const unknown = ['publisher'] as unknown as ['author'];
    const error = await failure(clients.books.show(book.id, { include: unknown }));
    expect(error).toMatchObject({ status: 400, code: 'invalid_query' });
    expect(error.detail).toContain('publisher');
  });
});

describe('what related resources refuse', () => {
  it('a foreign key naming no record, a taken unique value, a server-set field', async () => {
    const { author, book } = await seed('Tolkien');
    await clients.books.update(book.id, { isbn: '978-0261102217' });
    const dangling = await failure(clients.books.create({ title: 'Lost', authorId: author.id + 1000 }));
    expect(dangling).toMatchObject({ status: 422, errors: { authorId: ['does not exist'] } });
    const taken = await failure(clients.books.create({ title: 'Again', authorId: author.id, isbn: '978-0261102217' }));
    expect(taken).toMatchObject({ status: 422, errors: { isbn: ['is already taken'] } });
    const stamped = { name: 'Early', createdAt: '2000-01-01T00:00:00.000Z' } as { name: string };
    expect(await failure(clients.authors.create(stamped))).toMatchObject({ errors: { createdAt: ['is read-only'] } });
  });

  it('destroying a record others still refer to: 409', async () => {
    const { author } = await seed('Christie');
    const error = await failure(clients.authors.destroy(author.id));
    expect(error).toMatchObject({ status: 409, code: 'conflict' });
    expect(error.detail).toContain('books');
  });
});
