import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { enc, type HttpClient } from '../http-client.js';
import { type AuthorJson, type BookJson, createAuthor, createBooks, list } from './library-fixtures.js';
import { COMPARISONS, type Op, passes, sortedBy } from './query-reference.js';

// CONTRACT part 3, "Operators" on strings (book.title): comparisons by code point, as strings
// sort; `prefix` and `contains` literal and case-sensitive, so that LIKE's wildcards (`%`, `_`)
// and the escape characters stores use (`\`, `!`) match themselves.

const TITLES: readonly string[] = [
  'Dune',
  'dune',
  'DUNE',
  'Dune ',
  'Dune\t',
  'Dunes',
  'Düne',
  'Zebra',
  'apple',
  'Émile',
  '\uFB00 ligature', // U+FB00: above the surrogates in UTF-16, below astral characters by code point
  '\uFFFD replacement',
  '\u{1D518}nicode', // U+1D518, astral: sorts after U+FFFD
  '\u{1F600}',
  '50% off',
  '50 off',
  '50x off',
  '5%',
  'snake_case',
  'snakeXcase',
  'back\\slash',
  'backslash',
  'wow!',
  'wow',
  'a!%',
  'a!x',
  "it's",
  '[x]',
];

interface Shelf {
  author: AuthorJson;
  books: BookJson[];
}

/** Asserts `filter[title][op]=operand` for every op and operand against the reference. */
async function expectTitles(api: HttpClient, shelf: Shelf, ops: readonly Op[], operands: readonly string[]) {
  for (const operand of operands) {
    for (const op of ops) {
      const query = `filter[title][${op}]=${enc(operand)}`;
      const expected = shelf.books.filter((_, index) => passes('string', TITLES[index] as string, op, operand));
      const path = `/books?filter[authorId]=${shelf.author.id}&${query}&sort=id&per_page=100`;
      expect(await list<BookJson>(api, path), `${query} (${JSON.stringify(operand)})`).toEqual(expected);
    }
  }
}

/**
 * The group of string operators: comparisons by code point, literal case-sensitive prefix and contains: one of the library suite's groups.
 *
 * @example
 * ```ts
 * const GROUPS: readonly CaseGroup[] = [stringOperatorCases];
 * ```
 */
export const stringOperatorCases = group(
  'string operators',
  async (api): Promise<Shelf> => {
    const author = await createAuthor(api, { name: 'Strings' });
    return {
      author,
      books: await createBooks(
        api,
        author.id,
        TITLES.map((title) => ({ title })),
      ),
    };
  },
  {
    async 'string operators: eq ne gt gte lt lte compare by code point, exactly'(api, shelf) {
      const operands = ['Dune', 'dune', 'Dune ', 'Z', 'a', 'É', 'Ü', '\uFB00', '\uFFFD', '\u{1D518}', '\u{1F600}'];
      await expectTitles(api, shelf, COMPARISONS, [...operands, '50%', '5', 'back\\', '_', 'a!', '[']);
    },

    async 'string operators: uppercase sorts before lowercase; astral characters after U+FFFD'(api, shelf) {
      const base = `/books?filter[authorId]=${shelf.author.id}&per_page=100`;
      const below = await list<BookJson>(api, `${base}&filter[title][lt]=a&sort=id`);
      const titles = below.map((book) => book.title);
      expect(titles).toEqual(expect.arrayContaining(['Dune', 'DUNE', 'Zebra', '50% off', '[x]']));
      expect(titles).not.toContain('apple');
      expect(titles).not.toContain('dune');
      const above = await list<BookJson>(api, `${base}&filter[title][gt]=${enc('\uFFFD')}&sort=title`);
      expect(above.map((book) => book.title)).toEqual(['\uFFFD replacement', '\u{1D518}nicode', '\u{1F600}']);
      const ligature = await list<BookJson>(api, `${base}&filter[title][lt]=${enc('\u{1D518}')}&sort=-title`);
      expect(ligature.map((book) => book.title).slice(0, 3)).toEqual([
        '\uFFFD replacement',
        '\uFB00 ligature',
        'Émile',
      ]);
      const sorted = sortedBy(shelf.books, [{ field: 'title', kind: 'string' }]);
      const from = await list<BookJson>(api, `${base}&filter[title][gte]=D&sort=title`);
      expect(from).toEqual(sorted.filter((book) => passes('string', book.title, 'gte', 'D')));
    },

    async 'string operators: prefix is literal and case-sensitive (% _ \\ ! match themselves)'(api, shelf) {
      const operands = ['Dune', 'dune', 'D', 'Dune ', 'DU', '50%', '50_', '50', '5', '5%', 'snake_', 'snake'];
      const more = ['back\\', 'back\\s', 'wow!', 'a!', 'a!%', 'a!_', '\u{1D518}', '\uFFFD', '\uFB00', "it'", 'É'];
      await expectTitles(api, shelf, ['prefix'], [...operands, ...more, '%', '_', '!', '\\', '[', '[x]']);
      const base = `/books?filter[authorId]=${shelf.author.id}&sort=id`;
      const percent = await list<BookJson>(api, `${base}&filter[title][prefix]=${enc('50%')}`);
      expect(percent.map((book) => book.title)).toEqual(['50% off']);
      const underscore = await list<BookJson>(api, `${base}&filter[title][prefix]=${enc('snake_')}`);
      expect(underscore.map((book) => book.title)).toEqual(['snake_case']);
    },

    async 'string operators: contains is literal and case-sensitive (% _ \\ ! match themselves)'(api, shelf) {
      const operands = ['une', 'UNE', 'un', 'Dune', '%', '_', '\\', '!', "'", ' ', '\t', 'e_c', 'k\\s', '% o', '!%'];
      await expectTitles(api, shelf, ['contains'], [...operands, '!x', '\u{1D518}', 'nicode', '\uFB00', 'ü', '[x]']);
      const base = `/books?filter[authorId]=${shelf.author.id}&sort=id`;
      const backslash = await list<BookJson>(api, `${base}&filter[title][contains]=${enc('\\')}`);
      expect(backslash.map((book) => book.title)).toEqual(['back\\slash']);
      const bang = await list<BookJson>(api, `${base}&filter[title][contains]=${enc('!')}`);
      expect(bang.map((book) => book.title)).toEqual(['wow!', 'a!%', 'a!x']);
    },

    async 'string operators: prefix, contains and comparisons on one attribute combine with AND'(api, shelf) {
      const checks: readonly (readonly [string, (title: string) => boolean])[] = [
        ['filter[title][prefix]=Dune&filter[title][ne]=Dune', (t) => t.startsWith('Dune') && t !== 'Dune'],
        ['filter[title][contains]=e&filter[title][lt]=a', (t) => t.includes('e') && passes('string', t, 'lt', 'a')],
        ['filter[title][prefix]=50&filter[title][contains]=x', (t) => t.startsWith('50') && t.includes('x')],
        ['filter[title][]=wow&filter[title][]=apple&filter[title][prefix]=w', (t) => t === 'wow'],
      ];
      for (const [query, keep] of checks) {
        const found = await list<BookJson>(api, `/books?filter[authorId]=${shelf.author.id}&${query}&sort=id`);
        expect(found, query).toEqual(shelf.books.filter((book) => keep(book.title)));
      }
    },
  },
);
