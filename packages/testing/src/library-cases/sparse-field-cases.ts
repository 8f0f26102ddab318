import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { expectProblem, type HttpClient } from '../http-client.js';
import {
  type AuthorJson,
  type BookJson,
  createAuthor,
  createBooks,
  createReview,
  list,
  type ReviewJson,
  show,
} from './library-fixtures.js';
import { sortedBy } from './query-reference.js';

// CONTRACT part 3, "Sparse fields": `fields=title,year` answers each record with `id` and those
// fields only, on show and index; relations asked for with `include` are still added, whole.

/** `id` and the named fields of a record, in no particular key order. */
function pick<T extends { id: unknown }>(record: T, fields: readonly (keyof T & string)[]): Partial<T> {
  const kept: Partial<T> = { id: record.id } as Partial<T>;
  for (const field of fields) kept[field] = record[field];
  return kept;
}

/** Asserts that a record has exactly these keys (`id` and the asked fields, plus included relations). */
function expectKeys(record: object, keys: readonly string[]): void {
  expect(Object.keys(record).sort()).toEqual([...new Set(['id', ...keys])].sort());
}

interface Shelf {
  author: AuthorJson;
  books: BookJson[];
  reviews: ReviewJson[];
}

async function shelf(api: HttpClient): Promise<Shelf> {
  const author = await createAuthor(api, { name: 'Sparse', country: 'UK' });
  const books = await createBooks(api, author.id, [
    { title: 'Kept', year: 1970, price: '12.5', publishedAt: '2024-05-01T14:00:00+02:00' },
    { title: 'Also kept', year: 1999, price: '4.00' },
    { title: 'Without year', price: '8' },
    { title: 'Last', year: 1950, isbn: '9791000000031' },
  ]);
  const first = books[0] as BookJson;
  const reviews = [await createReview(api, first.id, { rating: 2 }), await createReview(api, first.id, { body: 'x' })];
  return { author, books, reviews };
}

/**
 * The group of sparse `fields=` on index and show, with `include`: one of the library suite's groups.
 *
 * @example
 * ```ts
 * const GROUPS: readonly CaseGroup[] = [sparseFieldCases];
 * ```
 */
export const sparseFieldCases = group('sparse fields', shelf, {
  async 'sparse fields: fields=title,year answers each record with id and those only (index)'(api, { author, books }) {
    const base = `/books?filter[authorId]=${author.id}&sort=id`;
    const listed = await list<Partial<BookJson>>(api, `${base}&fields=title,year`);
    for (const record of listed) expectKeys(record, ['title', 'year']);
    expect(listed).toEqual(books.map((book) => pick(book, ['title', 'year'])));
    expect(await list(api, `${base}&fields=year,title`)).toEqual(listed);
    const typed = await list(api, `${base}&fields=price,publishedAt,isbn`);
    expect(typed).toEqual(books.map((book) => pick(book, ['price', 'publishedAt', 'isbn'])));
    const reviews = await list<Partial<ReviewJson>>(api, '/reviews?fields=rating&sort=id');
    const byId = sortedBy((await list<ReviewJson>(api, '/reviews')) as ReviewJson[], []);
    expect(reviews).toEqual(byId.map((review) => ({ id: review.id, rating: review.rating })));
  },

  async 'sparse fields: fields may name id, a field like the others (index and show)'(api, { author, books }) {
    const base = `/books?filter[authorId]=${author.id}&sort=id`;
    expect(await list(api, `${base}&fields=id`)).toEqual(books.map((book) => ({ id: book.id })));
    expect(await list(api, `${base}&fields=id,year`)).toEqual(books.map((book) => pick(book, ['year'])));
    const book = books[0] as BookJson;
    expect(await show(api, `/books/${book.id}?fields=title,id`, 'book')).toEqual(pick(book, ['title']));
  },

  async 'sparse fields: fields=title,year on show'(api, { author, books, reviews }) {
    const book = books[0] as BookJson;
    expect(await show(api, `/books/${book.id}?fields=title,year`, 'book')).toEqual(pick(book, ['title', 'year']));
    const shown = await show<object>(api, `/books/${book.id}?fields=createdAt`, 'book');
    expectKeys(shown, ['createdAt']);
    const review = reviews[1] as ReviewJson;
    expect(await show(api, `/reviews/${review.id}?fields=body,bookId`, 'review')).toEqual(
      pick(review, ['body', 'bookId']),
    );
    expect(await show(api, `/authors/${author.id}?fields=country`, 'author')).toEqual(pick(author, ['country']));
  },

  async 'sparse fields: relations asked for with include are added whole (show and index)'(api, state) {
    const { author, books, reviews } = state;
    const book = books[0] as BookJson;
    const path = `/books/${book.id}?fields=title&include=author,reviews`;
    const ordered = sortedBy(reviews, []);
    expect(await show(api, path, 'book')).toEqual({ id: book.id, title: book.title, author, reviews: ordered });
    const listed = await list<object>(api, `/books?filter[authorId]=${author.id}&sort=id&fields=year&include=author`);
    for (const record of listed) expectKeys(record, ['year', 'author']);
    expect(listed).toEqual(books.map((b) => ({ id: b.id, year: b.year, author })));
    const withBooks = await show(api, `/authors/${author.id}?fields=name&include=books`, 'author');
    expect(withBooks).toEqual({ id: author.id, name: author.name, books });
    const review = reviews[0] as ReviewJson;
    const reviewed = await list(api, `/reviews?filter[id]=${review.id}&fields=rating&include=book`);
    expect(reviewed).toEqual([{ id: review.id, rating: review.rating, book }]);
  },

  async 'sparse fields: fields and include repeated, as clients that explode arrays send them, are one list each'(
    api,
    { author, books, reviews },
  ) {
    const book = books[0] as BookJson;
    const whole = { id: book.id, title: book.title, year: book.year, author, reviews: sortedBy(reviews, []) };
    const repeated = `/books/${book.id}?fields=title&include=author&fields=year&include=reviews`;
    expect(await show(api, repeated, 'book')).toEqual(whole);
    const base = `/books?filter[authorId]=${author.id}&sort=id`;
    expect(await list(api, `${base}&fields=title&fields=year&include=author`)).toEqual(
      await list(api, `${base}&fields=title,year&include=author`),
    );
    const link = (await api.get(`${base}&per_page=1&fields=title&fields=year`)).headers.get('link') ?? '';
    expect(link).toMatch(/fields=title&fields=year|fields=title%2Cyear/);
    const twice: readonly (readonly [string, string])[] = [
      [`/books/${book.id}?include=author&include=author`, 'author'],
      [`${base}&fields=title&fields=year,title`, 'title'],
      [`${base}&include=reviews,author&include=reviews`, 'reviews'],
    ];
    for (const [path, name] of twice) {
      expect(expectProblem(await api.get(path), 400).detail, path).toContain(`"${name}" more than once`);
    }
  },

  async 'sparse fields: an unknown field is 400 naming it (show and index)'(api, { books, reviews }) {
    const book = books[0] as BookJson;
    const review = reviews[0] as ReviewJson;
    const refused: readonly (readonly [string, string])[] = [
      ['/books?fields=title,pages', 'pages'],
      ['/books?fields=Title', 'Title'],
      ['/books?fields=author', 'author'],
      ['/books?fields=reviews&include=reviews', 'reviews'],
      [`/books/${book.id}?fields=pages`, 'pages'],
      [`/books/${book.id}?fields=year,author&include=author`, 'author'],
      ['/reviews?fields=title', 'title'],
      [`/reviews/${review.id}?fields=stars`, 'stars'],
      ['/authors?fields=books', 'books'],
      ['/authors?fields=__proto__', '__proto__'],
    ];
    for (const [path, name] of refused) expect(expectProblem(await api.get(path), 400).detail, path).toContain(name);
  },

  async 'sparse fields: sort and filters may use fields that are not listed'(api, { author, books }) {
    const base = `/books?filter[authorId]=${author.id}`;
    const byYear = sortedBy(books, [{ field: 'year', kind: 'integer', descending: true }]);
    const listed = await list(api, `${base}&fields=title&sort=-year`);
    expect(listed).toEqual(byYear.map((book) => ({ id: book.id, title: book.title })));
    const priced = sortedBy(
      books.filter((book) => book.price !== null && Number(book.price) >= 5),
      [{ field: 'price', kind: 'decimal' }],
    );
    const reply = await api.get(`${base}&fields=year&sort=price&filter[price][gte]=5&per_page=1&page=2`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ books: priced.slice(1, 2).map((book) => ({ id: book.id, year: book.year })) });
    expect(reply.headers.get('x-total-count')).toBe(String(priced.length));
    const link = reply.headers.get('link') ?? '';
    expect(link).toContain('fields=year');
  },
});
