import { memoryStore } from '@resourcery/core';
import { createListener } from '@resourcery/node';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type authors, type books, library, reviews } from '../../../test-support/library-resources.js';
import { ResourceError, resourceClient } from '../src/index.js';

// The typed client's query language (CONTRACT part 3) against the library's resources served
// from a memory store over real HTTP: operators, filters through a belongs-to relation, sparse
// fields and cursor pagination, each sent in the server's exact syntax.

let target: HttpSuiteTarget;
const sent: string[] = [];
let clients: {
  authors: ReturnType<typeof resourceClient<typeof authors>>;
  books: ReturnType<typeof resourceClient<typeof books>>;
  reviews: ReturnType<typeof resourceClient<typeof reviews>>;
};

beforeAll(async () => {
  target = await serveHttp(createListener({ resources: [...library], store: memoryStore(), basePath: '/api' }));
  const baseUrl = target.baseUrl;
  const fetch = (input: string, init: RequestInit) => {
    sent.push(decodeURIComponent(input.slice(baseUrl.length)));
    return globalThis.fetch(input, init);
  };
  clients = {
    authors: resourceClient<typeof authors>({ baseUrl, name: 'author', fetch }),
    books: resourceClient<typeof books>({ baseUrl, name: 'book', fetch }),
    reviews: resourceClient<typeof reviews>({ baseUrl, name: 'review', fetch }),
  };
});
afterAll(() => target.close());

/** The path and query of the last request. */
const last = () => sent[sent.length - 1];

/** Two authors (one without a country) and four books: 1983, 1987 and 1992 by the first, one without a year by the other. */
async function seed(name: string) {
  const author = await clients.authors.create({ name, country: 'UK' });
  const other = await clients.authors.create({ name: `Not ${name}` });
  const made = [];
  for (const [i, year] of [1983, 1987, 1992, null].entries()) {
    const authorId = i === 3 ? other.id : author.id;
    made.push(await clients.books.create({ title: `The ${name} ${i}`, authorId, year }));
  }
  return { author, other, made: made as [(typeof made)[0], (typeof made)[0], (typeof made)[0], (typeof made)[0]] };
}

describe('operators', () => {
  it('are sent as filter[field][op] and combine with AND', async () => {
    const { author, made } = await seed('Pratchett');
    const { records } = await clients.books.index({
      filter: { year: { gte: 1984, lt: 2000 }, title: { prefix: 'The Pratchett' }, authorId: author.id },
      sort: 'year',
    });
    expect(last()).toBe(
      `/books?filter[year][gte]=1984&filter[year][lt]=2000&filter[title][prefix]=The Pratchett&filter[authorId]=${author.id}&sort=year`,
    );
    expect(records).toEqual([made[1], made[2]]);
  });

  it('find nulls with null, which comparisons never match', async () => {
    const { other, made } = await seed('Gaiman');
    const missing = await clients.books.index({ filter: { year: { null: true }, authorId: other.id } });
    expect(last()).toContain('filter[year][null]=true');
    expect(missing.records).toEqual([made[3]]);
    const compared = await clients.books.index({ filter: { year: { ne: 1983 }, title: { contains: 'Gaiman' } } });
    expect(compared.records.map((book) => book.id)).toEqual([made[2].id, made[1].id]);
    const nowhere = await clients.authors.index({ filter: { country: { null: true }, name: { contains: 'Gaiman' } } });
    expect(nowhere.records).toEqual([other]);
  });

  it('that do not fit the field are a 400 naming them', async () => {
    const error = await clients.books.index({ filter: { year: { prefix: '19' } } as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_query' });
    expect((error as ResourceError).detail).toContain('prefix');
  });
});

describe('filters through a belongs-to relation', () => {
  it('are sent as filter[relation.field], with operators too', async () => {
    const { made } = await seed('Tolkien');
    const { records } = await clients.books.index({
      filter: { 'author.country': 'UK', 'author.name': { prefix: 'Tolk' } },
      sort: ['-year'],
    });
    expect(last()).toBe('/books?filter[author.country]=UK&filter[author.name][prefix]=Tolk&sort=-year');
    expect(records).toEqual([made[2], made[1], made[0]]);
  });
});

describe('fields', () => {
  it('answers id and the fields named, with the relations of include whole', async () => {
    const { author, made } = await seed('Austen');
    const { records } = await clients.books.index({ filter: { authorId: author.id }, fields: ['title', 'year'] });
    expect(last()).toBe(`/books?filter[authorId]=${author.id}&fields=title,year`);
    expect(records).toEqual([2, 1, 0].map((i) => ({ id: made[i]?.id, title: made[i]?.title, year: made[i]?.year })));
    const shown = await clients.books.show(made[0].id, { fields: ['title'], include: ['author'] });
    expect(last()).toBe(`/books/${made[0].id}?include=author&fields=title`);
    expect(shown).toEqual({ id: made[0].id, title: made[0].title, author });
  });
});

describe('cursor pagination', () => {
  it('gives nextCursor from the Link header, and each() follows the cursors', async () => {
    expect(reviews.options.pagination).toBe('cursor');
    const { made } = await seed('Le Guin');
    const bookId = made[0].id;
    const written = [];
    for (const rating of [3, 1, 5, 2, 4]) written.push(await clients.reviews.create({ bookId, rating }));
    const first = await clients.reviews.index({ filter: { bookId }, sort: 'rating', perPage: 2 });
    expect(first.records.map((review) => review.rating)).toEqual([1, 2]);
    expect(first).toMatchObject({ next: undefined, total: undefined, nextCursor: expect.any(String) });
    const second = await clients.reviews.index({
      filter: { bookId },
      sort: 'rating',
      perPage: 2,
      after: first.nextCursor,
    });
    expect(last()).toBe(`/reviews?filter[bookId]=${bookId}&sort=rating&per_page=2&after=${first.nextCursor}`);
    expect(second.records.map((review) => review.rating)).toEqual([3, 4]);
    sent.length = 0;
    const seen = [];
    for await (const review of clients.reviews.each({ filter: { bookId }, sort: '-rating', perPage: 2 }))
      seen.push(review);
    expect(seen.map((review) => review.rating)).toEqual([5, 4, 3, 2, 1]);
    expect(new Set(seen.map((review) => review.id))).toEqual(new Set(written.map((review) => review.id)));
    expect(sent).toHaveLength(3);
    expect(sent.every((path) => !/[?&]page=/.test(path))).toBe(true);
    const counted = await clients.reviews.index({ filter: { bookId }, count: true, perPage: 2 });
    expect(counted.total).toBe(5);
  });

  it('each() still walks numbered pages', async () => {
    const { author } = await seed('Banks');
    const titles = [];
    for await (const book of clients.books.each({ filter: { authorId: author.id }, fields: ['title'], perPage: 1 })) {
      titles.push(book.title);
    }
    expect(titles).toEqual(['The Banks 2', 'The Banks 1', 'The Banks 0']);
    expect(sent.slice(-3).map((path) => /[?&](page=\d+)/.exec(path)?.[1])).toEqual([undefined, 'page=2', 'page=3']);
  });
});
