import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { enc, type HttpClient } from '../http-client.js';
import { type AuthorJson, type BookJson, createAuthor, createBooks, list, total } from './library-fixtures.js';
import { COMPARISONS, type Kind, type Op, passes } from './query-reference.js';

// CONTRACT part 3, "Operators": eq ne gt gte lt lte on integers, decimals and date-times; null;
// several operators on one attribute; the part-1 forms. Expected books are worked out from the
// values sent (not from the server's answers) by the reference in query-reference.ts.

/** What each book was created with; omitted attributes are null. */
const SENT: readonly Record<string, string | number | null>[] = [
  { year: 1937, price: '10.00', publishedAt: '2024-05-01T14:00:00+02:00', isbn: '9791000000017' }, // 12:00Z
  { year: 1950, price: 10, publishedAt: '2024-05-01T12:00:00.001Z' },
  { year: 1950, price: '9.99', publishedAt: '2024-05-01T07:59:59.999-04:00' }, // 11:59:59.999Z
  { year: 1965, price: '100.00', publishedAt: '2024-04-30T23:30:00-01:00' }, // 2024-05-01T00:30Z
  { year: 1999, price: '10.01', publishedAt: '2024-05-01T00:30:00Z', isbn: '9791000000024' },
  { year: 2000, price: '0.5', publishedAt: '2023-12-31T23:59:59Z' },
  { year: -44, price: '-1.50', publishedAt: '2024-05-02T01:00:00+03:00' }, // 2024-05-01T22:00Z
  { year: 0, price: '2.5', publishedAt: null },
  { year: null, price: null, publishedAt: '2024-05-01T12:00:00Z' },
  { year: null, price: '10', publishedAt: null },
  {},
];

interface Shelf {
  author: AuthorJson;
  books: BookJson[];
}

/** The value a book was sent with (null when left out). */
function sent(index: number, field: string): string | number | null {
  return (SENT[index] as Record<string, string | number | null>)[field] ?? null;
}

/** Asserts `filter[field][op]=operand` for every op and operand against the reference. */
async function expectOperators(
  api: HttpClient,
  { author, books }: Shelf,
  field: string,
  kind: Kind,
  operands: readonly string[],
  ops: readonly Op[] = COMPARISONS,
): Promise<void> {
  for (const operand of operands) {
    for (const op of ops) {
      const query = `filter[${field}][${op}]=${enc(operand)}`;
      const expected = books.filter((_, index) => passes(kind, sent(index, field), op, operand));
      const found = await list<BookJson>(api, `/books?filter[authorId]=${author.id}&${query}&sort=id&per_page=100`);
      expect(found, query).toEqual(expected);
    }
  }
}

/**
 * The group of operators eq ne gt gte lt lte and null on integers, decimals and date-times; AND; the part-1 forms: one of the library suite's groups.
 *
 * @example
 * ```ts
 * const GROUPS: readonly CaseGroup[] = [operatorCases];
 * ```
 */
export const operatorCases = group(
  'operators',
  async (api): Promise<Shelf> => {
    const author = await createAuthor(api, { name: 'Operators' });
    return { author, books: await createBooks(api, author.id, SENT) };
  },
  {
    async 'operators: eq ne gt gte lt lte on an integer (year); a comparison never matches null'(api, shelf) {
      await expectOperators(api, shelf, 'year', 'integer', ['1950', '1937', '1999', '2000', '0', '-44', '-45', '3000']);
    },

    async 'operators: on a decimal (price) compare numerically; "10" equals "10.00"'(api, shelf) {
      const operands = ['10', '10.0', '10.00', '9.99', '10.01', '100', '2.5', '0.50', '-1.5', '-2', '0', '99.99'];
      await expectOperators(api, shelf, 'price', 'decimal', operands);
      const base = `/books?filter[authorId]=${shelf.author.id}`;
      const tens = await list<BookJson>(api, `${base}&filter[price][eq]=10&sort=id`);
      expect(tens.map((book) => book.price)).toEqual(['10.00', '10.00', '10.00']);
      const cheaper = await list<BookJson>(api, `${base}&filter[price][lt]=10&sort=price`);
      expect(cheaper.map((book) => book.price)).toEqual(['-1.50', '0.50', '2.50', '9.99']);
    },

    async 'operators: on a date-time (publishedAt) compare instants, whatever offset is sent'(api, shelf) {
      const operands = [
        '2024-05-01T12:00:00Z',
        '2024-05-01T14:00:00+02:00',
        '2024-05-01T12:00:00.000Z',
        '2024-05-01T12:00:00.001Z',
        '2024-05-01T11:59:59.999Z',
        '2024-05-01T08:00:00-04:00',
        '2024-05-01T00:30:00Z',
        '2024-05-01T02:30:00+02:00',
        '2024-05-01T22:00:00Z',
        '2023-12-31T23:59:59Z',
        '2024-01-01T00:59:59+01:00',
      ];
      await expectOperators(api, shelf, 'publishedAt', 'date-time', operands);
    },

    async 'operators: null=true|false on nullable attributes (year, price, publishedAt, isbn)'(api, shelf) {
      for (const [field, kind] of [
        ['year', 'integer'],
        ['price', 'decimal'],
        ['publishedAt', 'date-time'],
        ['isbn', 'string'],
      ] as const) {
        await expectOperators(api, shelf, field, kind, ['true', 'false'], ['null']);
      }
    },

    async 'operators: filter[year][ne]=1937 leaves out books without a year; [null]=true finds them'(api, shelf) {
      const { author, books } = shelf;
      const base = `/books?filter[authorId]=${author.id}&sort=id&per_page=100`;
      const withYear = books.filter((book) => book.year !== null);
      const without = books.filter((book) => book.year === null);
      expect(without).toHaveLength(3);
      expect(await list(api, `${base}&filter[year][ne]=1937`)).toEqual(withYear.filter((b) => b.year !== 1937));
      expect(await list(api, `${base}&filter[year][null]=true`)).toEqual(without);
      expect(await list(api, `${base}&filter[year][null]=false`)).toEqual(withYear);
      // ne and lt/gt together still leave out null: no comparison is true of it.
      const either = await list(api, `${base}&filter[year][lt]=1000&filter[year][ne]=0`);
      expect(either).toEqual(books.filter((book) => book.year === -44));
      const priced = books.filter((book) => book.price !== null).length;
      expect(await total(api, `/books?filter[authorId]=${author.id}&filter[price][ne]=1`)).toBe(priced);
    },

    async 'operators: several on one attribute combine with AND, and with other filters'(api, shelf) {
      const { author, books } = shelf;
      const base = `/books?filter[authorId]=${author.id}&sort=id&per_page=100`;
      const between = books.filter((book) => book.year !== null && book.year >= 1950 && book.year < 2000);
      expect(between.map((book) => book.year)).toEqual([1950, 1950, 1965, 1999]);
      expect(await list(api, `${base}&filter[year][gte]=1950&filter[year][lt]=2000`)).toEqual(between);
      expect(await list(api, `${base}&filter[year][lt]=2000&filter[year][gte]=1950`)).toEqual(between);
      expect(await list(api, `${base}&filter[year][gt]=1950&filter[year][lt]=1950`)).toEqual([]);
      const tens = books.filter((_, index) => [0, 1].includes(index));
      expect(await list(api, `${base}&filter[price][gte]=10&filter[price][lte]=10.00&filter[year][ne]=2000`)).toEqual(
        tens,
      );
      const exact = `filter[year][gte]=1950&filter[year][lte]=1950&filter[price][lt]=10`;
      expect(await list(api, `${base}&${exact}`)).toEqual([books[2]]);
      const afterThird = books.filter((book) => book.id > (books[2] as BookJson).id && book.year !== null);
      expect(await list(api, `${base}&filter[id][gt]=${books[2]?.id}&filter[year][null]=false`)).toEqual(afterThird);
      const range = '&filter[year][gte]=1950&filter[year][lt]=2000';
      expect(await total(api, `/books?filter[authorId]=${author.id}${range}`)).toBe(4);
    },

    async 'operators: filter[attr]=v stays eq, [eq]=v is the same, filter[attr][]=a&[]=b stays any-of'(api, shelf) {
      const { author, books } = shelf;
      const base = `/books?filter[authorId]=${author.id}&sort=id&per_page=100`;
      const of1950 = books.filter((book) => book.year === 1950);
      expect(await list(api, `${base}&filter[year]=1950`)).toEqual(of1950);
      expect(await list(api, `${base}&filter[year][eq]=1950`)).toEqual(of1950);
      const anyOf = books.filter((book) => book.year === 1950 || book.year === 1999 || book.year === 0);
      expect(await list(api, `${base}&filter[year][]=1950&filter[year][]=1999&filter[year][]=0`)).toEqual(anyOf);
      // any-of and an operator on the same attribute combine with AND.
      const both = `filter[year][]=1950&filter[year][]=1999&filter[year][gt]=1960`;
      expect(await list(api, `${base}&${both}`)).toEqual(books.filter((book) => book.year === 1999));
      const tens = books.filter((book) => book.price === '10.00');
      expect(await list(api, `${base}&filter[price][]=10&filter[price][]=10.0`)).toEqual(tens);
      const noon = `filter[publishedAt][]=${enc('2024-05-01T14:00:00+02:00')}&filter[publishedAt][]=1999-01-01T00:00:00Z`;
      expect(await list(api, `${base}&${noon}`)).toEqual([books[0], books[8]]);
    },
  },
);
