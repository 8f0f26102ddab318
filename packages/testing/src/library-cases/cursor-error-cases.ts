import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { enc, expectProblem, type HttpClient, parseLinks } from '../http-client.js';
import { type BookJson, createAuthor, createBook, createReview, type ReviewJson } from './library-fixtures.js';
import { type SortKey, sortedBy, walk } from './query-reference.js';

// CONTRACT part 3, "Cursor pagination": `after` is opaque, so a cursor the server did not make
// (forged, edited, garbage) or one used with another query is a 400, never a 500; `after` on a
// page-paginated resource is a 400; and a walk while reviews are created repeats and skips none.

interface Shelf {
  book: BookJson;
  other: BookJson;
  reviews: ReviewJson[];
}

async function shelf(api: HttpClient): Promise<Shelf> {
  const author = await createAuthor(api);
  const book = await createBook(api, author.id);
  const other = await createBook(api, author.id);
  const reviews: ReviewJson[] = [];
  for (const rating of [4, 2, 4, 5, 1, 4, 3, 2, 4]) reviews.push(await createReview(api, book.id, { rating }));
  for (const rating of [3, 4]) reviews.push(await createReview(api, other.id, { rating }));
  return { book, other, reviews };
}

/** The `after` of the next link of `path`'s first page. */
async function cursorOf(api: HttpClient, path: string): Promise<string> {
  const reply = await api.get(path);
  expect(reply.status, reply.text).toBe(200);
  const next = parseLinks(reply.headers.get('link')).next;
  expect(next, `${path} links next`).toBeTypeOf('string');
  return new URL(api.resolve(next as string)).searchParams.get('after') as string;
}

/** Asserts a 400 problem whose `detail` names `after`. */
async function refusesAfter(api: HttpClient, path: string): Promise<void> {
  expect(expectProblem(await api.get(path), 400).detail, path).toContain('after');
}

const fromBase64Url = (text: string) => atob(text.replace(/-/g, '+').replace(/_/g, '/'));
const toBase64Url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Cursors the server did not make, derived from one it did (`a.b` if it has that shape). */
function forgeries(cursor: string): string[] {
  const [payload = '', signature = ''] = cursor.split('.');
  const flip = (text: string, at: number) => `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
  const forged: string[] = [
    'garbage',
    'abc.def',
    '.',
    '..',
    'null',
    '{"v":1}',
    'a'.repeat(3000),
    `${cursor}x`,
    cursor.slice(0, -1),
    flip(cursor, 0),
    // Not the last character: its lowest bits may be base64 padding that decoders ignore.
    flip(cursor, cursor.length - 2),
    `${payload}.${flip(signature, 0)}`,
    payload,
    `${payload}.`,
    `.${signature}`,
    `${payload}.${signature}.${signature}`,
    `${payload}.${signature}=`,
    `${payload}.AAAA`,
    cursor.toUpperCase(),
    cursor.replace(/-/g, '+').replace(/_/g, '/'),
  ];
  try {
    // The same content with one value changed keeps its old signature.
    const content = JSON.parse(fromBase64Url(payload));
    for (const key of Object.keys(content)) {
      const edited = { ...content, [key]: Array.isArray(content[key]) ? [...content[key]].reverse() : 2 };
      forged.push(`${toBase64Url(JSON.stringify(edited))}.${signature}`);
    }
  } catch {
    // An opaque cursor that is not base64url JSON: the other forgeries stand.
  }
  return forged.filter((text) => text !== cursor);
}

/**
 * The group of 400s for forged cursors, cursors of another query and `after` on page-paginated resources: one of the library suite's groups.
 *
 * @example
 * ```ts
 * const GROUPS: readonly CaseGroup[] = [cursorErrorCases];
 * ```
 */
export const cursorErrorCases = group('cursor errors', shelf, {
  async 'cursor errors: a forged, edited or garbage after is 400, never 500'(api, { book }) {
    const base = `/reviews?filter[bookId]=${book.id}&sort=rating&per_page=2`;
    const cursor = await cursorOf(api, base);
    expect((await api.get(`${base}&after=${enc(cursor)}`)).status).toBe(200);
    for (const forged of forgeries(cursor)) await refusesAfter(api, `${base}&after=${enc(forged)}`);
  },

  async 'cursor errors: a cursor used with other filters or another sort is 400'(api, { book, other }) {
    const base = `filter[bookId]=${book.id}&sort=rating&per_page=2`;
    const after = enc(await cursorOf(api, `/reviews?${base}`));
    for (const query of [
      `filter[bookId]=${book.id}&sort=-rating&per_page=2`,
      `filter[bookId]=${book.id}&per_page=2`,
      `filter[bookId]=${book.id}&sort=createdAt&per_page=2`,
      `filter[bookId]=${other.id}&sort=rating&per_page=2`,
      `sort=rating&per_page=2`,
      `${base}&filter[rating][gte]=1`,
      `filter[bookId][ne]=${book.id}&sort=rating&per_page=2`,
    ]) {
      await refusesAfter(api, `/reviews?${query}&after=${after}`);
    }
    const byDefault = enc(await cursorOf(api, '/reviews?per_page=3'));
    await refusesAfter(api, `/reviews?per_page=3&sort=rating&after=${byDefault}`);
    await refusesAfter(api, `/reviews?per_page=3&filter[rating]=4&after=${byDefault}`);
    expect((await api.get(`/reviews?per_page=3&after=${byDefault}`)).status).toBe(200);
  },

  async 'cursor errors: after on a page-paginated resource (books, authors) is 400'(api) {
    const cursor = enc(await cursorOf(api, '/reviews?per_page=2'));
    for (const path of [
      `/books?after=${cursor}`,
      `/books?per_page=2&after=${cursor}`,
      `/books?after=abc`,
      `/books?page=2&after=abc`,
      `/authors?after=${cursor}`,
      `/authors?after=`,
    ]) {
      await refusesAfter(api, path);
    }
    expectProblem(await api.get(`/reviews?per_page=2&page=2&after=${cursor}`), 400);
  },

  async 'cursor: stays under 200 characters and carries no sort value, however long the values'(api, { other }) {
    // 4,500 CJK characters: one such value made a Link header over 16 KiB when cursors held it.
    const long = (last: string) => `${'長'.repeat(4499)}${last}`;
    const bodies = ['b', 'd', 'a', 'e', 'c'].map(long);
    const made: ReviewJson[] = [];
    for (const body of bodies) made.push(await createReview(api, other.id, { body }));
    const pages = await walk<ReviewJson>(
      api,
      `/reviews?filter[bookId]=${other.id}&filter[body][null]=false&sort=body&per_page=2`,
      'reviews',
    );
    for (const page of pages.slice(1)) {
      const after = new URL(api.resolve(page.path)).searchParams.get('after') ?? '';
      expect(after.length, page.path.slice(0, 80)).toBeLessThan(200);
      expect(after).not.toContain('%');
      expect(atob(after.replace(/-/g, '+').replace(/_/g, '/'))).not.toContain('\u9577');
    }
    for (const page of pages) expect((page.reply.headers.get('link') ?? '').length).toBeLessThan(1000);
    const seen = pages.flatMap((page) => page.records);
    expect(seen).toEqual(sortedBy(made, [{ field: 'body', kind: 'string' }]));
  },
});

const WALKS: readonly (readonly [string, readonly SortKey[]])[] = [
  ['', [{ field: 'createdAt', kind: 'date-time', descending: true }]],
  ['&sort=rating', [{ field: 'rating', kind: 'integer' }]],
  ['&sort=-rating', [{ field: 'rating', kind: 'integer', descending: true }]],
  ['&sort=createdAt', [{ field: 'createdAt', kind: 'date-time' }]],
  ['&sort=id', []],
];

/**
 * The group of cursor walks while reviews are being created: one of the library suite's groups.
 *
 * @example
 * ```ts
 * const GROUPS: readonly CaseGroup[] = [cursorWritingCases];
 * ```
 */
export const cursorWritingCases = group('cursor walk while writing', shelf, {
  async 'cursor: a walk while reviews are created repeats and skips none that existed at the start'(api, state) {
    for (const [sort, keys] of WALKS) {
      const present = await walk<ReviewJson>(api, `/reviews?filter[bookId]=${state.book.id}&per_page=100`, 'reviews');
      const before = present.flatMap((page) => page.records);
      const created: ReviewJson[] = [];
      const pages = await walk<ReviewJson>(
        api,
        `/reviews?filter[bookId]=${state.book.id}&per_page=2${sort}`,
        'reviews',
        async (page) => {
          if (page > 6) return;
          for (const rating of [1, 3, 5]) created.push(await createReview(api, state.book.id, { rating }));
          await createReview(api, state.other.id, { rating: 3 });
        },
      );
      const seen = pages.flatMap((page) => page.records);
      const ids = seen.map((review) => review.id);
      expect(new Set(ids).size, `${sort}: no review twice`).toBe(ids.length);
      const missing = before.filter((review) => !ids.includes(review.id));
      expect(missing, `${sort}: every review that existed at the start`).toEqual([]);
      const known = new Set([...before, ...created].map((review) => review.id));
      expect(
        ids.filter((id) => !known.has(id)),
        `${sort}: only this book's reviews`,
      ).toEqual([]);
      expect(seen, `${sort}: in the requested order`).toEqual(sortedBy(seen, keys));
      expect(seen.every((review) => review.bookId === state.book.id)).toBe(true);
    }
  },
});
