import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { enc, expectProblem, type HttpClient, parseLinks } from '../http-client.js';
import {
  type AuthorJson,
  type BookJson,
  createAuthor,
  createBooks,
  createReview,
  expectNamedParameters,
  list,
  type ReviewJson,
} from './library-fixtures.js';
import { type Kind, type Op, passes, sortedBy } from './query-reference.js';

// CONTRACT part 3, "Relations": `filter[author.country]=UK` filters by an attribute of a
// belongs-to relation, with every operator; has-many relations cannot be filtered this way.

interface Library {
  authors: AuthorJson[];
  books: BookJson[];
  reviews: ReviewJson[];
}

const AUTHORS: readonly Partial<AuthorJson>[] = [
  { name: 'Le Carré', country: 'UK' },
  { name: 'Le Guin', country: 'US' },
  { name: 'Lewis', country: 'UK' },
  { name: 'le Fanu', country: 'IE' },
  { name: 'Herbert', country: null },
  { name: 'Tolkien', country: 'UK' },
  { name: 'Lowercase', country: 'uk' },
  { name: 'Bookless', country: 'UK' },
];
/** Years of each author's books (the last author has none). */
const YEARS: readonly (readonly (number | null)[])[] = [
  [1963, 1974, null],
  [1968, 1974],
  [1950, 1956, 1942],
  [1872],
  [1965, null],
  [1937, 1954, 1977],
  [2001],
  [],
];

async function library(api: HttpClient): Promise<Library> {
  const authors: AuthorJson[] = [];
  const books: BookJson[] = [];
  for (const [index, values] of AUTHORS.entries()) {
    const author = await createAuthor(api, values);
    authors.push(author);
    books.push(
      ...(await createBooks(
        api,
        author.id,
        (YEARS[index] ?? []).map((year) => ({ year })),
      )),
    );
  }
  const reviews: ReviewJson[] = [];
  for (const book of books.filter((_, index) => index % 2 === 0)) reviews.push(await createReview(api, book.id));
  return { authors, books, reviews };
}

/** The books whose author passes `filter[author.<field>][op]=operand`, by id. */
function byAuthor({ authors, books }: Library, field: keyof AuthorJson, kind: Kind, op: Op, operand: string) {
  const kept = new Set(authors.filter((a) => passes(kind, a[field], op, operand)).map((author) => author.id));
  return books.filter((book) => kept.has(book.authorId));
}

/**
 * The group of filters through a belongs-to relation (`filter[author.country]=UK`), and 400 for has-many ones: one of the library suite's groups.
 *
 * @example
 * ```ts
 * const GROUPS: readonly CaseGroup[] = [relationFilterCases];
 * ```
 */
export const relationFilterCases = group('relation filters', library, {
  async 'relation filters: filter[author.country]=UK keeps the books whose author is from UK'(api, state) {
    const uk = byAuthor(state, 'country', 'string', 'eq', 'UK');
    expect(uk).toHaveLength(9);
    expect(await list(api, '/books?filter[author.country]=UK&sort=id&per_page=100')).toEqual(uk);
    expect(await list(api, '/books?filter[author.country][eq]=UK&sort=id&per_page=100')).toEqual(uk);
    const either = state.books.filter((book) =>
      [...uk, ...byAuthor(state, 'country', 'string', 'eq', 'US')].includes(book),
    );
    const anyOf = '/books?filter[author.country][]=UK&filter[author.country][]=US&sort=id&per_page=100';
    expect(await list(api, anyOf)).toEqual(either);
    expect(await list(api, '/books?filter[author.country]=Uk')).toEqual([]);
    expect(await list(api, '/books?filter[author.country]=France')).toEqual([]);
  },

  async 'relation filters: operators work through the relation (prefix Le, ne, null, comparisons)'(api, state) {
    const third = state.authors[3] as AuthorJson;
    const grid: readonly (readonly [keyof AuthorJson, Kind, Op, string])[] = [
      ['name', 'string', 'prefix', 'Le'],
      ['name', 'string', 'prefix', 'Le '],
      ['name', 'string', 'contains', 'e'],
      ['name', 'string', 'contains', 'é'],
      ['name', 'string', 'lt', 'M'],
      ['name', 'string', 'gte', 'le'],
      ['country', 'string', 'ne', 'UK'],
      ['country', 'string', 'null', 'true'],
      ['country', 'string', 'null', 'false'],
      ['country', 'string', 'gt', 'UK'],
      ['country', 'string', 'prefix', 'U'],
      ['id', 'integer', 'gt', String(third.id)],
      ['id', 'integer', 'lte', String(third.id)],
      ['createdAt', 'date-time', 'gte', third.createdAt],
      ['createdAt', 'date-time', 'lt', third.createdAt],
    ];
    for (const [field, kind, op, operand] of grid) {
      const query = `filter[author.${field}][${op}]=${enc(operand)}`;
      const found = await list<BookJson>(api, `/books?${query}&sort=id&per_page=100`);
      expect(found, query).toEqual(byAuthor(state, field, kind, op, operand));
    }
    const le = await list<BookJson>(api, '/books?filter[author.name][prefix]=Le&sort=id&per_page=100');
    const names = new Set(le.map((book) => state.authors.find((a) => a.id === book.authorId)?.name));
    expect([...names]).toEqual(['Le Carré', 'Le Guin', 'Lewis']);
  },

  async 'relation filters: combine with own filters, sort, pages, X-Total-Count and Link'(api, state) {
    const uk = new Set(byAuthor(state, 'country', 'string', 'eq', 'UK'));
    const matching = sortedBy(
      state.books.filter((book) => uk.has(book) && book.year !== null && book.year >= 1950),
      [{ field: 'year', kind: 'integer', descending: true }],
    );
    expect(matching.map((book) => book.year)).toEqual([1977, 1974, 1963, 1956, 1954, 1950]);
    const query = 'filter[author.country]=UK&filter[year][gte]=1950&sort=-year&per_page=2';
    const reply = await api.get(`/books?${query}&page=2`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual({ books: matching.slice(2, 4) });
    expect(reply.headers.get('x-total-count')).toBe('6');
    const links = parseLinks(reply.headers.get('link'));
    expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next', 'prev']);
    for (const [rel, page] of Object.entries({ first: '1', prev: '1', next: '3', last: '3' })) {
      const params = new URL(api.resolve(links[rel] as string)).searchParams;
      expect(params.get('filter[author.country]'), rel).toBe('UK');
      expect(params.get('page'), rel).toBe(page);
    }
    const next = await api.get(api.resolve(links.next as string));
    expect(next.body).toEqual({ books: matching.slice(4, 6) });
    const two = 'filter[author.country]=UK&filter[author.name][prefix]=Le&sort=id&per_page=100';
    const both = byAuthor(state, 'name', 'string', 'prefix', 'Le').filter((book) => uk.has(book));
    expect(await list(api, `/books?${two}`)).toEqual(both);
    const included = await list<BookJson & { author: AuthorJson }>(api, `/books?${two}&include=author`);
    expect(included.map((book) => book.author.country)).toEqual(both.map(() => 'UK'));
  },

  async 'relation filters: reviews filter by their book (filter[book.year], filter[book.authorId])'(api, state) {
    const byBook = (keep: (book: BookJson) => boolean) => {
      const kept = new Set(state.books.filter(keep).map((book) => book.id));
      return sortedBy(
        state.reviews.filter((review) => kept.has(review.bookId)),
        [{ field: 'createdAt', kind: 'date-time', descending: true }],
      );
    };
    const recent = byBook((book) => book.year !== null && book.year >= 1960);
    expect(await list(api, '/reviews?filter[book.year][gte]=1960&per_page=100')).toEqual(recent);
    const first = state.authors[0] as AuthorJson;
    const his = byBook((book) => book.authorId === first.id);
    expect(await list(api, `/reviews?filter[book.authorId]=${first.id}&per_page=100`)).toEqual(his);
    const yearless = byBook((book) => book.year === null);
    expect(await list(api, '/reviews?filter[book.year][null]=true&per_page=100')).toEqual(yearless);
  },

  async 'relation filters: an unknown relation or attribute is 400 naming it'(api) {
    const refused: readonly (readonly [string, string])[] = [
      ['/books?filter[publisher.name]=x', 'publisher'],
      ['/books?filter[Author.country]=UK', 'Author'],
      ['/books?filter[author.nationality]=UK', 'nationality'],
      ['/books?filter[author.Country]=UK', 'Country'],
      ['/books?filter[author.nationality][prefix]=U', 'nationality'],
      ['/books?filter[author.country][like]=U', 'like'],
      ['/reviews?filter[author.country]=UK', 'author'],
      ['/reviews?filter[book.pages]=1', 'pages'],
      ['/authors?filter[author.name]=x', 'author'],
      ['/books?filter[author.__proto__]=x', '__proto__'],
    ];
    for (const [path, name] of refused) expect(expectProblem(await api.get(path), 400).detail, path).toContain(name);
  },

  async 'relation filters: a 400 names the parameter exactly as sent (filter[author.nope], not filter[nope])'(api) {
    await expectNamedParameters(api, [
      ['/books?filter[author.nope]=x', 'filter[author.nope]'],
      ['/books?filter%5Bauthor.nope%5D=x', 'filter[author.nope]'],
      ['/books?filter[author.nationality][prefix]=U', 'filter[author.nationality][prefix]'],
      ['/books?filter[author.nope][]=a&filter[author.nope][]=b', 'filter[author.nope][]'],
      ['/books?filter[author.country][like]=U', 'filter[author.country][like]'],
      ['/books?filter[author.name][null]=true', 'filter[author.name][null]'],
      ['/books?filter[author.country][null]=yes', 'filter[author.country][null]'],
      ['/books?filter[author.id][gt]=x', 'filter[author.id][gt]'],
      ['/books?filter[author.id][]=1&filter[author.id][]=x', 'filter[author.id][]'],
      ['/books?filter[author.createdAt]=2024', 'filter[author.createdAt]'],
      ['/books?filter[author.books.title]=Dune', 'filter[author.books.title]'],
      ['/books?filter[publisher.name]=x', 'filter[publisher.name]'],
      ['/reviews?filter[book.pages]=1', 'filter[book.pages]'],
      ['/reviews?filter[book.year][gte]=abc', 'filter[book.year][gte]'],
      ['/reviews?filter[book.price][contains]=1', 'filter[book.price][contains]'],
    ]);
  },

  async 'relation filters: a has-many relation is not filterable this way (400)'(api) {
    const refused: readonly (readonly [string, string])[] = [
      ['/authors?filter[books.title]=Dune', 'books'],
      ['/authors?filter[books.year][gt]=1950', 'books'],
      ['/authors?filter[books.id][]=1&filter[books.id][]=2', 'books'],
      ['/books?filter[reviews.rating]=5', 'reviews'],
      ['/books?filter[reviews.rating][gte]=4', 'reviews'],
    ];
    for (const [path, name] of refused) expect(expectProblem(await api.get(path), 400).detail, path).toContain(name);
  },
});
