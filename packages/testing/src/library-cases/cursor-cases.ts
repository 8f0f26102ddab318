import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { expectProblem, type HttpClient, parseLinks } from '../http-client.js';
import { type BookJson, createAuthor, createBook, createReview, type ReviewJson, tick } from './library-fixtures.js';
import { expectFullPages, type SortKey, sortedBy, walk } from './query-reference.js';

// CONTRACT part 3, "Cursor pagination" (reviews): no `page`, a total only with `count=true`,
// `Link: rel="next"` with `after=` keeping the other parameters, and walks that visit every
// record once in the requested sort (ties broken by id).

/** Ratings of the first book's reviews: many ties, so that the id tie-breaker decides. */
const RATINGS = [5, 3, 5, 1, 5, 3, 3, 5, 2, 5, 3, 1, 5, 5, 3, 4, 5, 3, 5, 1, 3, 5, 4];

interface Shelf {
  book: BookJson;
  other: BookJson;
  empty: BookJson;
  reviews: ReviewJson[];
}

async function shelf(api: HttpClient): Promise<Shelf> {
  const author = await createAuthor(api);
  const [book, other, empty] = [
    await createBook(api, author.id),
    await createBook(api, author.id),
    await createBook(api, author.id),
  ];
  const reviews: ReviewJson[] = [];
  for (const [index, rating] of RATINGS.entries()) {
    reviews.push(await createReview(api, book.id, { rating }));
    if (index % 4 === 3) await tick(); // some reviews share a millisecond, some do not
  }
  for (const rating of [2, 5, 5, 1]) reviews.push(await createReview(api, other.id, { rating }));
  return { book, other, empty, reviews };
}

const DEFAULT: readonly SortKey[] = [{ field: 'createdAt', kind: 'date-time', descending: true }];
const BY_RATING: readonly SortKey[] = [{ field: 'rating', kind: 'integer' }];
const BY_RATING_DESC: readonly SortKey[] = [{ field: 'rating', kind: 'integer', descending: true }];

/** The records of a walk, page after page. */
function visited<T>(pages: readonly { records: T[] }[]): T[] {
  return pages.flatMap((page) => page.records);
}

/**
 * The group of cursor pagination of reviews: no `page`, `count=true`, `next` links and complete walks: one of the library suite's groups.
 *
 * @example
 * ```ts
 * const GROUPS: readonly CaseGroup[] = [cursorCases];
 * ```
 */
export const cursorCases = group('cursor pagination', shelf, {
  async 'cursor: page is 400; X-Total-Count only with count=true'(api, { book, reviews }) {
    for (const query of ['page=1', 'page=2&per_page=5', `filter[bookId]=${book.id}&page=1`, 'page=1&count=true']) {
      expect(expectProblem(await api.get(`/reviews?${query}`), 400).detail, query).toContain('page');
    }
    for (const query of ['per_page=5', 'per_page=5&count=false', '']) {
      const reply = await api.get(`/reviews?${query}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get('x-total-count'), query).toBeNull();
    }
    const counted = await api.get('/reviews?per_page=5&count=true');
    expect(counted.headers.get('x-total-count')).toBe(String(reviews.length));
    const filtered = await api.get(`/reviews?filter[bookId]=${book.id}&filter[rating][gte]=4&count=true`);
    const expected = reviews.filter((review) => review.bookId === book.id && review.rating >= 4).length;
    expect(filtered.headers.get('x-total-count')).toBe(String(expected));
  },

  async 'cursor: the first page is the request without after, in the default order (-createdAt, id)'(api, state) {
    const reply = await api.get('/reviews?per_page=5');
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ reviews: sortedBy(state.reviews, DEFAULT).slice(0, 5) });
    expect(Object.keys(parseLinks(reply.headers.get('link')))).toEqual(['next']);
  },

  async 'cursor: a full page links next with after=, keeping per_page, sort, filter and include'(api, state) {
    const { book, reviews } = state;
    const query = `filter[bookId]=${book.id}&filter[rating][gte]=2&sort=-rating&per_page=4&include=book&count=true`;
    const reply = await api.get(`/reviews?${query}`);
    expect(reply.status, reply.text).toBe(200);
    const matching = sortedBy(
      reviews.filter((review) => review.bookId === book.id && review.rating >= 2),
      BY_RATING_DESC,
    ).map((review) => ({ ...review, book }));
    expect(reply.body).toEqual({ reviews: matching.slice(0, 4) });
    const next = parseLinks(reply.headers.get('link')).next as string;
    expect(next).toBeTypeOf('string');
    const url = new URL(api.resolve(next));
    expect(url.pathname).toBe(new URL(api.url('/reviews')).pathname);
    const params = url.searchParams;
    expect(params.get('filter[bookId]')).toBe(String(book.id));
    expect(params.get('filter[rating][gte]')).toBe('2');
    expect(params.get('sort')).toBe('-rating');
    expect(params.get('per_page')).toBe('4');
    expect(params.get('include')).toBe('book');
    expect(params.get('count')).toBe('true');
    expect(params.get('after')).toMatch(/.+/);
    expect(params.getAll('after')).toHaveLength(1);
    expect(params.has('page')).toBe(false);
    const second = await api.get(url.href);
    expect(second.status, second.text).toBe(200);
    expect(second.body).toEqual({ reviews: matching.slice(4, 8) });
    expect(second.headers.get('x-total-count')).toBe(String(matching.length));
    const third = new URL(api.resolve(parseLinks(second.headers.get('link')).next as string)).searchParams;
    expect(third.get('after')).not.toBe(params.get('after'));
    expect(third.getAll('after')).toHaveLength(1);
  },

  async 'cursor: walking next visits every review exactly once in the default order'(api, { reviews, other }) {
    for (const perPage of [5, 1, 9, 27]) {
      const pages = await walk<ReviewJson>(api, `/reviews?per_page=${perPage}`, 'reviews');
      expect(visited(pages), `per_page=${perPage}`).toEqual(sortedBy(reviews, DEFAULT));
      expectFullPages(pages, perPage);
    }
    const theirs = sortedBy(
      reviews.filter((review) => review.bookId === other.id),
      DEFAULT,
    );
    for (const perPage of [1, 2, 3, 4, 100]) {
      const pages = await walk<ReviewJson>(api, `/reviews?filter[bookId]=${other.id}&per_page=${perPage}`, 'reviews');
      expect(visited(pages), `per_page=${perPage}`).toEqual(theirs);
      expectFullPages(pages, perPage);
    }
  },

  async 'cursor: sort=rating and sort=-rating walk in order, ties broken by id'(api, { book, reviews }) {
    const mine = reviews.filter((review) => review.bookId === book.id);
    for (const [sort, keys] of [
      ['rating', BY_RATING],
      ['-rating', BY_RATING_DESC],
      ['-rating,createdAt', [...BY_RATING_DESC, { field: 'createdAt', kind: 'date-time' }]],
      ['id', []],
      ['createdAt', [{ field: 'createdAt', kind: 'date-time' }]],
    ] as const) {
      for (const perPage of [3, 4]) {
        const path = `/reviews?filter[bookId]=${book.id}&sort=${sort}&per_page=${perPage}`;
        const pages = await walk<ReviewJson>(api, path, 'reviews');
        expect(visited(pages), path).toEqual(sortedBy(mine, keys));
        expectFullPages(pages, perPage);
      }
    }
    const all = await walk<ReviewJson>(api, '/reviews?sort=-rating&per_page=2', 'reviews');
    expect(visited(all)).toEqual(sortedBy(reviews, BY_RATING_DESC));
  },

  async 'cursor: every page keeps operator filters, fields and include'(api, { book, other, reviews }) {
    const path =
      '/reviews?filter[rating][gte]=3&filter[rating][lt]=5&fields=rating&include=book&sort=rating&per_page=4';
    const pages = await walk<Record<string, unknown>>(api, path, 'reviews');
    const expected = sortedBy(
      reviews.filter((review) => review.rating >= 3 && review.rating < 5),
      BY_RATING,
    );
    expect(expected.length).toBeGreaterThan(8);
    const books = new Map([book, other].map((entry) => [entry.id, entry]));
    for (const record of visited(pages)) expect(Object.keys(record).sort()).toEqual(['book', 'id', 'rating']);
    expect(visited(pages)).toEqual(
      expected.map((review) => ({ id: review.id, rating: review.rating, book: books.get(review.bookId) })),
    );
    expectFullPages(pages, 4);
    const created = await walk<Record<string, unknown>>(api, '/reviews?fields=createdAt&per_page=6', 'reviews');
    expect(visited(created)).toEqual(sortedBy(reviews, DEFAULT).map(({ id, createdAt }) => ({ id, createdAt })));
  },

  async 'cursor: the last page and an empty result send no next'(api, { empty, reviews }) {
    const none = await api.get(`/reviews?filter[bookId]=${empty.id}`);
    expect(none.status, none.text).toBe(200);
    expect(none.body).toEqual({ reviews: [] });
    expect(parseLinks(none.headers.get('link')).next).toBeUndefined();
    const whole = await api.get('/reviews?per_page=100');
    expect(whole.body).toEqual({ reviews: sortedBy(reviews, DEFAULT) });
    expect(parseLinks(whole.headers.get('link')).next).toBeUndefined();
    const pages = await walk<ReviewJson>(api, '/reviews?per_page=10', 'reviews');
    const last = pages[pages.length - 1];
    expect(last?.records.length).toBe(7);
    expect(parseLinks(last?.reply.headers.get('link') ?? null).next).toBeUndefined();
  },
});
