import type { AggregateQuery, Collection } from '@resourcery/core/store';
import { expect } from 'vitest';
import { op, where } from './fixtures.js';
import { addBook, type Library, libraryGroup } from './library.js';

/** `collection.aggregate` with the parts of the query not given left empty. */
function aggregate(collection: Collection, query: Partial<AggregateQuery>) {
  if (!collection.aggregate) throw new Error('this store has no Collection.aggregate');
  return collection.aggregate({ where: [], group: [], sum: [], min: [], max: [], limit: 1001, ...query });
}

/** Authors 1 (UK), 2 (no country), 3 (US); seven books of mixed formats, prices and dates. */
async function seedShelf(db: Library): Promise<void> {
  await db.authors.create({ name: 'Austen', country: 'UK', born: '1775-12-16' });
  await db.authors.create({ name: 'Dick', country: null, born: '1928-12-16' });
  await db.authors.create({ name: 'Herbert', country: 'US', born: null });
  const books: [number, string | null, string | null, number, string | null][] = [
    [1, 'paperback', '12.50', 3, '2020-01-01T00:00:00.000Z'],
    [2, 'Hardcover', '0.05', 1, null],
    [3, null, null, 0, '1999-12-31T23:59:59.999Z'],
    [3, 'paperback', '-2.55', 10, '2021-06-01T12:00:00.000Z'],
    [1, 'épique', '100.00', 2, null],
    [3, '😀', '9.99', 5, '2001-01-01T00:00:00.000Z'],
    [2, 'paperback', null, 4, null],
  ];
  for (const [index, [authorId, format, price, copies, publishedAt]] of books.entries()) {
    await addBook(db, { title: `T${index}`, authorId, format, price, copies, publishedAt });
  }
}

/** Statistics: groups, counts, exact sums, min and max, computed by the store. */
export const aggregateCases = libraryGroup('aggregate', {
  'one row per value, null first, strings by code point, with exact sums and min/max': async (db) => {
    await seedShelf(db);
    const rows = await aggregate(db.books, {
      group: ['format'],
      sum: ['price', 'copies'],
      min: ['price', 'publishedAt'],
      max: ['price', 'publishedAt'],
    });
    expect(rows).toEqual([
      {
        group: [null],
        count: 1,
        sum: [null, 0],
        min: [null, '1999-12-31T23:59:59.999Z'],
        max: [null, '1999-12-31T23:59:59.999Z'],
      },
      { group: ['Hardcover'], count: 1, sum: ['0.05', 1], min: ['0.05', null], max: ['0.05', null] },
      {
        group: ['paperback'],
        count: 3,
        sum: ['9.95', 17],
        min: ['-2.55', '2020-01-01T00:00:00.000Z'],
        max: ['12.50', '2021-06-01T12:00:00.000Z'],
      },
      { group: ['épique'], count: 1, sum: ['100.00', 2], min: ['100.00', null], max: ['100.00', null] },
      {
        group: ['😀'],
        count: 1,
        sum: ['9.99', 5],
        min: ['9.99', '2001-01-01T00:00:00.000Z'],
        max: ['9.99', '2001-01-01T00:00:00.000Z'],
      },
    ]);
  },

  'without a group: one row for all, and count 0 with null aggregates when nothing matches': async (db) => {
    await seedShelf(db);
    expect(await aggregate(db.books, { sum: ['price'], min: ['copies'], max: ['price'] })).toEqual([
      { group: [], count: 7, sum: ['119.99'], min: [0], max: ['100.00'] },
    ]);
    const none = await aggregate(db.books, {
      where: [where('authorId', 99)],
      sum: ['price', 'copies'],
      max: ['publishedAt'],
    });
    expect(none).toEqual([{ group: [], count: 0, sum: [null, null], min: [], max: [null] }]);
    expect(await aggregate(db.books, { where: [where('authorId', 99)], group: ['format'] })).toEqual([]);
  },

  'groups by several attributes, decimals and integers in numeric order': async (db) => {
    await seedShelf(db);
    const rows = await aggregate(db.books, { group: ['authorId', 'price'] });
    expect(rows.map((row) => [...row.group, row.count])).toEqual([
      [1, '12.50', 1],
      [1, '100.00', 1],
      [2, null, 1],
      [2, '0.05', 1],
      [3, null, 1],
      [3, '-2.55', 1],
      [3, '9.99', 1],
    ]);
  },

  'takes the conditions of a list, relation filters included, and the limit': async (db) => {
    await seedShelf(db);
    const related = {
      field: 'authorId',
      values: [],
      related: { collection: db.schemas.authors.name, where: [where('country', 'UK', 'US')] },
    };
    const rows = await aggregate(db.books, {
      where: [related, op('copies', 'gte', 1)],
      group: ['authorId'],
      sum: ['copies'],
    });
    expect(rows).toEqual([
      { group: [1], count: 2, sum: [5], min: [], max: [] },
      { group: [3], count: 2, sum: [15], min: [], max: [] },
    ]);
    const first = await aggregate(db.books, { group: ['format'], limit: 2 });
    expect(first.map((row) => row.group[0])).toEqual([null, 'Hardcover']);
  },

  'min and max of dates; sums past 2^53 stay exact': async (db) => {
    await seedShelf(db);
    expect(await aggregate(db.authors, { min: ['born'], max: ['born'] })).toEqual([
      { group: [], count: 3, sum: [], min: ['1775-12-16'], max: ['1928-12-16'] },
    ]);
    const big = 2 ** 52;
    for (const [i, copies] of [big, big, big, big + 1].entries()) {
      await addBook(db, { title: `Big${i}`, authorId: 1, copies, price: '9999999999999.99' });
    }
    const [row] = await aggregate(db.books, { where: [op('title', 'prefix', 'Big')], sum: ['copies', 'price'] });
    expect(row?.sum).toEqual([String(4n * BigInt(big) + 1n), '39999999999999.96']);
  },
});
