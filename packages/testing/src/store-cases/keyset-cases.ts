import type { Collection, Condition, ListQuery, Scalar, StoredRecord } from '@resourcery/core/store';
import { expect } from 'vitest';
import { ids, library, op, orderBy, seed, storeGroup, where } from './fixtures.js';
import { all, libraryGroup } from './library.js';
import { seedLibrary } from './typed-operator-cases.js';

/** The position of a record in `order`: its value of each key. */
function positionOf(record: StoredRecord, order: ListQuery['order']): Scalar[] {
  return order.map(({ field }) => (record[field] ?? null) as Scalar);
}

/**
 * Every page of a query followed with `after` (the position of each page's last record), as
 * cursor pagination does: the records in the order they came, and the total of each page.
 */
async function walk(
  collection: Collection,
  query: Partial<ListQuery> & Pick<ListQuery, 'order' | 'limit'>,
): Promise<{ records: StoredRecord[]; totals: (number | undefined)[] }> {
  const records: StoredRecord[] = [];
  const totals: (number | undefined)[] = [];
  let after: Scalar[] | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await collection.list({ where: [], offset: 0, count: false, ...query, after });
    records.push(...page.records);
    totals.push(page.total);
    const last = page.records[page.records.length - 1];
    if (!last || page.records.length < query.limit) return { records, totals };
    after = positionOf(last, query.order);
  }
  throw new Error('walk: more than 100 pages');
}

/** Checks that walking with `after` visits every record of the plain listing once, in its order. */
async function expectWalks(collection: Collection, keys: string[], conditions: Condition[] = [], sizes = [1, 2, 3]) {
  const order = orderBy(...keys);
  const expected = ids(await all(collection, { order, where: conditions }));
  expect(new Set(expected).size).toBe(expected.length);
  for (const limit of sizes) {
    const { records, totals } = await walk(collection, { order, where: conditions, limit, count: true });
    expect(ids(records), `${keys.join(',')} by ${limit}`).toEqual(expected);
    expect(new Set(totals)).toEqual(new Set([expected.length]));
  }
}

/** The ids after a position in an order. */
async function after(store: Collection, keys: string[], position: Scalar[], conditions: Condition[] = []) {
  const query = { where: conditions, order: orderBy(...keys), limit: 100, offset: 0, count: false };
  return ids((await store.list({ ...query, after: position })).records);
}

const ORDERS = [
  ['id'],
  ['-id'],
  ['author', '-year', 'id'],
  ['year', 'id'],
  ['-year', 'id'],
  ['-year', '-id'],
  ['price', '-id'],
  ['-price', 'id'],
  ['-available', 'name', 'id'],
  ['available', '-id'],
  ['author', 'price', '-available', '-id'],
];

/** Keyset pagination (`after`): strictly after a position, nulls first ascending and last descending. */
export const keysetCases = storeGroup('list after', {
  'walks every record exactly once in every order, with nulls and ties': async (store) => {
    await seed(store, [...library, ...library]);
    for (const keys of ORDERS) await expectWalks(store, keys);
  },
  'walks only the matching records, and counts them all on every page': async (store) => {
    await seed(store, [...library, ...library]);
    await expectWalks(store, ['-price', 'id'], [where('author', 'Austen', 'Dick')]);
    await expectWalks(store, ['year', '-id'], [op('price', 'ne', 7.25), op('name', 'contains', 'u')]);
  },
  'starts strictly after a position, held by a record or not': async (store) => {
    await seed(store, library);
    expect(await after(store, ['id'], [3])).toEqual([4, 5, 6, 7]);
    expect(await after(store, ['-id'], [3])).toEqual([2, 1]);
    expect(await after(store, ['id'], [7])).toEqual([]);
    expect(await after(store, ['year', 'id'], [1900, 0])).toEqual([1, 6, 5]);
    expect(await after(store, ['year', 'id'], [1965, 1])).toEqual([6, 5]);
    expect(await after(store, ['author', 'id'], ['Dick', 4])).toEqual([5, 1, 6]);
    expect(await after(store, ['-author', '-id'], ['Dick', 5])).toEqual([4, 7, 3, 2]);
    expect(await after(store, ['price', 'id'], [7.25, 4])).toEqual([5, 1, 6]);
  },
  'a null position: everything with a value comes after it ascending, nothing descending': async (store) => {
    await seed(store, library);
    expect(await after(store, ['year', 'id'], [null, 4])).toEqual([7, 2, 3, 1, 6, 5]);
    expect(await after(store, ['year', '-id'], [null, 4])).toEqual([2, 3, 1, 6, 5]);
    expect(await after(store, ['-year', 'id'], [null, 4])).toEqual([7]);
    expect(await after(store, ['-year', 'id'], [1817, 3])).toEqual([2, 4, 7]);
    expect(await after(store, ['-available', 'id'], [false, 5])).toEqual([4, 7]);
    expect(await after(store, ['available', 'id'], [null, 7])).toEqual([2, 5, 1, 3, 6]);
  },
  'the page after a position with a limit and a count of every match': async (store) => {
    await seed(store, library);
    const page = await store.list({
      where: [where('author', 'Austen', 'Dick')],
      order: orderBy('-price', 'id'),
      limit: 2,
      offset: 0,
      count: true,
      after: [7.25, 4],
    });
    expect([ids(page.records), page.total]).toEqual([[5, 2], 5]);
  },
});

/** Keyset pagination over decimals, date-times, uuid ids and per-group limits. */
export const keysetTypeCases = libraryGroup('list after on types', {
  'walks decimals and date-times with nulls and ties': async (db) => {
    await seedLibrary(db);
    for (const keys of [
      ['price', 'id'],
      ['-price', '-id'],
      ['publishedAt', '-id'],
      ['-publishedAt', 'price', 'id'],
    ]) {
      await expectWalks(db.books, keys);
    }
    await expectWalks(db.authors, ['country', '-born', 'id']);
    await expectWalks(db.authors, ['-born', 'id']);
    const books = await db.books.list({
      where: [],
      order: orderBy('price', 'id'),
      limit: 10,
      offset: 0,
      count: false,
      after: ['9.99', 2],
    });
    expect(ids(books.records)).toEqual([7, 1, 5]);
  },
  'walks uuid ids': async (db) => {
    await seedLibrary(db);
    await expectWalks(db.reviews, ['-rating', 'id']);
    await expectWalks(db.reviews, ['bookId', '-id']);
    await expectWalks(db.reviews, ['id']);
  },
  'walks the records left by a per-group limit': async (db) => {
    await seedLibrary(db);
    const perGroup = { field: 'authorId', limit: 2 };
    const order = orderBy('-price', 'id');
    const expected = ids(
      (await db.books.list({ where: [], order, limit: 100, offset: 0, count: false, perGroup })).records,
    );
    expect(expected).toEqual([5, 1, 2, 7, 4, 6]);
    for (const limit of [1, 2, 4]) {
      const { records, totals } = await walk(db.books, { order, limit, count: true, perGroup });
      expect(ids(records)).toEqual(expected);
      expect(new Set(totals)).toEqual(new Set([6]));
    }
  },
});
