import type { StoredRecord } from '@resourcery/core/store';
import { expect } from 'vitest';
import { ids, orderBy, where } from './fixtures.js';
import { addBook, all, CREATED, libraryGroup, uuid } from './library.js';

/** What a created book holds besides the values a case gives. */
const BOOK = {
  isbn: null,
  price: null,
  publishedAt: null,
  meta: null,
  format: 'paperback',
  copies: 0,
  createdAt: CREATED,
};

const ROUND_TRIP = [
  {
    price: '12.50',
    publishedAt: '2024-05-01T12:00:00.000Z',
    meta: { tags: ['sf', 'classic'], nested: { depth: 2, ok: true, none: null }, ratio: 1.5 },
  },
  { price: '-3.05', publishedAt: '0001-01-01T00:00:00.000Z', meta: {} },
  {
    price: '0.00',
    publishedAt: '9999-12-31T23:59:59.999Z',
    meta: { text: 'Łódź 😀 "quoted" \\ back\\slash\nline', big: 9007199254740991, negative: -0.25 },
  },
  { price: '9999999999999.99', publishedAt: '1970-01-01T00:00:00.001Z', meta: null },
  { price: '-9999999999999.99', publishedAt: null, meta: { list: [1, 'two', [3], { four: 4 }, null, false] } },
  { price: '0.01', publishedAt: '1969-12-31T23:59:59.999Z', meta: { 'key with spaces': { '': 'empty key' } } },
];

/** Decimals out of numeric order, as text order would get them wrong. */
const PRICES = ['10.00', '9.99', '100.00', null, '-5.00', '-10.50', '0.00', '0.50', '-0.50', '1000000.00', '-0.05'];
const PRICES_ASC = [null, '-10.50', '-5.00', '-0.50', '-0.05', '0.00', '0.50', '9.99', '10.00', '100.00', '1000000.00'];

const TIMES = [
  '2024-05-01T12:00:00.001Z',
  null,
  '1969-12-31T23:59:59.999Z',
  '0001-01-01T00:00:00.000Z',
  '2024-05-01T12:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  '1970-01-01T00:00:00.000Z',
];
const BORN = ['1920-10-08', null, '0001-01-01', '9999-12-31', '2024-02-29', '1775-12-16'];

/** Sorted copy with `null` first. */
function nullFirst<T extends string | null>(values: readonly T[]): T[] {
  return [...values].sort((a, b) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1));
}

/** The new attribute types: canonical values kept exactly, ordered and compared as every store must. */
export const typeCases = libraryGroup('types', {
  'keeps decimals, date-times, dates and json exactly as given': async (db) => {
    const author = await db.authors.create({ name: 'Herbert', born: '2024-02-29' });
    expect(author).toStrictEqual({ id: 1, name: 'Herbert', country: null, born: '2024-02-29' });
    for (const [index, values] of ROUND_TRIP.entries()) {
      const created = await addBook(db, { title: `T${index}`, authorId: author.id, ...values });
      const expected = { id: index + 1, title: `T${index}`, authorId: author.id, ...BOOK, ...values };
      expect(created).toStrictEqual(expected);
      expect(await db.books.find(index + 1, [])).toStrictEqual(expected);
    }
    const listed = await all(db.books);
    expect(listed.map((book) => [book.price, book.publishedAt, book.meta])).toStrictEqual(
      ROUND_TRIP.map((values) => [values.price, values.publishedAt, values.meta]),
    );
    for (const born of BORN) {
      const created = await db.authors.create({ name: 'A', born });
      expect((await db.authors.find(created.id, []))?.born).toBe(born);
    }
  },

  'answers copies of json values: changing them changes nothing stored': async (db) => {
    const author = await db.authors.create({ name: 'Herbert' });
    const meta = { tags: ['a'], nested: { n: 1 } };
    const created = await addBook(db, { title: 'Dune', authorId: author.id, meta });
    meta.tags.push('changed by the caller');
    (created.meta as typeof meta).nested.n = 2;
    const found = (await db.books.find(created.id, [])) as StoredRecord;
    expect(found.meta).toStrictEqual({ tags: ['a'], nested: { n: 1 } });
    (found.meta as typeof meta).tags.push('changed');
    const [listed] = (await all(db.books)) as [StoredRecord];
    expect(listed.meta).toStrictEqual({ tags: ['a'], nested: { n: 1 } });
    (listed.meta as typeof meta).nested.n = 3;
    const next = { tags: ['b'], nested: { n: 5 } };
    const updated = (await db.books.update(created.id, { meta: next }, [])) as StoredRecord;
    next.nested.n = 6;
    (updated.meta as typeof meta).tags.push('changed');
    expect((await db.books.find(created.id, []))?.meta).toStrictEqual({ tags: ['b'], nested: { n: 5 } });
  },

  'sorts decimals numerically, null first ascending and last descending': async (db) => {
    const author = await db.authors.create({ name: 'Herbert' });
    for (const [index, price] of PRICES.entries())
      await addBook(db, { title: `T${index}`, authorId: author.id, price });
    const prices = async (...keys: string[]) => (await all(db.books, { order: orderBy(...keys) })).map((b) => b.price);
    expect(await prices('price', 'id')).toEqual(PRICES_ASC);
    expect(await prices('-price', 'id')).toEqual([...PRICES_ASC].reverse());
    const page = await db.books.list({ where: [], order: orderBy('price', 'id'), limit: 3, offset: 2, count: true });
    expect(page.records.map((book) => book.price)).toEqual(PRICES_ASC.slice(2, 5));
    expect(page.total).toBe(PRICES.length);
    const scoped = await all(db.books, { where: [where('authorId', author.id)], order: orderBy('-price', '-id') });
    expect(scoped.map((book) => book.price)).toEqual([...PRICES_ASC].reverse());
  },

  'sorts date-times and dates in time order': async (db) => {
    const author = await db.authors.create({ name: 'Herbert' });
    for (const [index, publishedAt] of TIMES.entries()) {
      await addBook(db, { title: `T${index}`, authorId: author.id, publishedAt });
    }
    const times = async (...keys: string[]) =>
      (await all(db.books, { order: orderBy(...keys) })).map((book) => book.publishedAt);
    expect(await times('publishedAt', 'id')).toEqual(nullFirst(TIMES));
    expect(await times('-publishedAt', 'id')).toEqual(nullFirst(TIMES).reverse());
    for (const born of BORN) await db.authors.create({ name: 'A', born });
    const born = await all(db.authors, { where: [where('name', 'A')], order: orderBy('born', 'id') });
    expect(born.map((record) => record.born)).toEqual(nullFirst(BORN));
  },

  'filters by equality on each type': async (db) => {
    const herbert = await db.authors.create({ name: 'Herbert', born: '1920-10-08' });
    const austen = await db.authors.create({ name: 'Austen', born: '1775-12-16' });
    const at = '2024-05-01T12:00:00.000Z';
    await addBook(db, { title: 'Dune', authorId: herbert.id, price: '12.50', publishedAt: at });
    await addBook(db, { title: 'Emma', authorId: austen.id, price: '1.25', publishedAt: '2024-05-01T12:00:00.001Z' });
    await addBook(db, { title: 'Sanditon', authorId: austen.id, price: null, publishedAt: null });
    await addBook(db, { title: 'Ubik', authorId: herbert.id, price: '-12.50', publishedAt: at });
    const found = async (...conditions: ReturnType<typeof where>[]) => ids(await all(db.books, { where: conditions }));
    expect(await found(where('price', '12.50'))).toEqual([1]);
    expect(await found(where('price', '12.50', '-12.50', '99.00'))).toEqual([1, 4]);
    expect(await found(where('price', null))).toEqual([3]);
    expect(await found(where('publishedAt', at))).toEqual([1, 4]);
    expect(await found(where('publishedAt', at), where('authorId', herbert.id), where('price', '-12.50'))).toEqual([4]);
    expect(await found(where('authorId', austen.id))).toEqual([2, 3]);
    expect(ids(await all(db.authors, { where: [where('born', '1775-12-16')] }))).toEqual([austen.id]);
    const first = uuid('aa');
    await db.reviews.create({ id: first, bookId: 1, rating: 5 });
    await db.reviews.create({ id: uuid('bb'), bookId: 2, rating: 4 });
    await db.reviews.create({ id: uuid('cc'), bookId: 1, rating: 3 });
    const reviews = async (...conditions: ReturnType<typeof where>[]) =>
      (await all(db.reviews, { where: conditions })).map((review) => review.id);
    expect(await reviews(where('id', first))).toEqual([first]);
    expect(await reviews(where('id', uuid('cc'), uuid('dd'), first))).toEqual([first, uuid('cc')]);
    expect(await reviews(where('bookId', 1))).toEqual([first, uuid('cc')]);
  },
});
