import type { ListQuery } from '@resourcery/core/store';
import { expect } from 'vitest';
import { ids, op, orderBy, where } from './fixtures.js';
import { addBook, type Library, libraryGroup, uuid } from './library.js';

/**
 * Authors 1 (no book), 2 (books 2 and 5) and 3 (books 1, 3, 4, 6 and 7), created interleaved,
 * with prices out of id order.
 */
async function seedShelves(db: Library): Promise<void> {
  for (const name of ['Austen', 'Dick', 'Herbert']) await db.authors.create({ name });
  const books: [number, string | null][] = [
    [3, '50.00'],
    [2, '20.00'],
    [3, '5.00'],
    [3, '100.00'],
    [2, '1.00'],
    [3, '9.99'],
    [3, null],
  ];
  for (const [index, [authorId, price]] of books.entries()) await addBook(db, { title: `T${index}`, authorId, price });
}

/** The books of authors 1 to 3, at most `cap` per author, in `order`. */
async function perAuthor(db: Library, cap: number, order: string[], page: Partial<ListQuery> = {}) {
  return db.books.list({
    where: [where('authorId', 1, 2, 3)],
    order: orderBy(...order),
    limit: 100,
    offset: 0,
    count: false,
    perGroup: { field: 'authorId', limit: cap },
    ...page,
  });
}

/** Per-group limits: the first records of each value of a field, as `include` of a has-many uses them. */
export const perGroupCases = libraryGroup('per group', {
  'keeps at most the limit of records per value, the first in the order': async (db) => {
    await seedShelves(db);
    expect(ids((await perAuthor(db, 3, ['id'])).records)).toEqual([1, 2, 3, 4, 5]);
    expect(ids((await perAuthor(db, 3, ['-id'])).records)).toEqual([7, 6, 5, 4, 2]);
    expect(ids((await perAuthor(db, 3, ['price', 'id'])).records)).toEqual([7, 5, 3, 6, 2]);
    expect(ids((await perAuthor(db, 3, ['-price', 'id'])).records)).toEqual([4, 1, 2, 6, 5]);
    expect(ids((await perAuthor(db, 1, ['id'])).records)).toEqual([1, 2]);
    expect(ids((await perAuthor(db, 10, ['id'])).records)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  },

  'limit, offset and the count apply after the per-group cut': async (db) => {
    await seedShelves(db);
    expect(await perAuthor(db, 3, ['id'], { limit: 2, offset: 1, count: true })).toEqual({
      records: [expect.objectContaining({ id: 2 }), expect.objectContaining({ id: 3 })],
      total: 5,
    });
    const last = await perAuthor(db, 3, ['id'], { limit: 10, offset: 4, count: true });
    expect([ids(last.records), last.total]).toEqual([[5], 5]);
    const beyond = await perAuthor(db, 3, ['id'], { limit: 10, offset: 9, count: true });
    expect([ids(beyond.records), beyond.total]).toEqual([[], 5]);
  },

  'works without conditions and with other conditions': async (db) => {
    await seedShelves(db);
    const everyAuthor = await db.books.list({
      where: [],
      order: orderBy('-id'),
      limit: 100,
      offset: 0,
      count: true,
      perGroup: { field: 'authorId', limit: 2 },
    });
    expect([ids(everyAuthor.records), everyAuthor.total]).toEqual([[7, 6, 5, 2], 4]);
    const cheap = await perAuthor(db, 2, ['id'], { where: [where('authorId', 2, 3), where('price', '5.00', '1.00')] });
    expect(ids(cheap.records)).toEqual([3, 5]);
  },

  'a null among the listed values is one group of its own': async (db) => {
    await seedShelves(db);
    for (const bookId of [null, 1, null, null, 1, null, 2]) await db.awards.create({ name: 'Prize', bookId });
    const listed = (...values: (number | null)[]) =>
      db.awards.list({
        where: [where('bookId', ...values)],
        order: orderBy('id'),
        limit: 100,
        offset: 0,
        count: true,
        perGroup: { field: 'bookId', limit: 2 },
      });
    const all = await listed(2, null, 1);
    expect([ids(all.records), all.total]).toEqual([[1, 2, 3, 5, 7], 5]);
    expect(ids((await listed(null)).records)).toEqual([1, 3]);
    expect(ids((await listed(null, 3)).records)).toEqual([1, 3]);
  },

  'uuid values, groups of unequal sizes and a group without records': async (db) => {
    await seedShelves(db);
    const [r1, r2, r3, none] = [uuid('a1'), uuid('b2'), uuid('c3'), uuid('d4')];
    for (const [id, bookId] of [
      [r1, 1],
      [r2, 1],
      [r3, 2],
    ] as const) {
      await db.reviews.create({ id, bookId, rating: 3 });
    }
    // Votes 1 to 6: r1 has 1, 3, 4 and 6; r2 has 2; r3 has 5.
    for (const reviewId of [r1, r2, r1, r1, r3, r1]) await db.votes.create({ reviewId, up: true });
    const votes = await db.votes.list({
      where: [where('reviewId', r3, none, r1, r2)],
      order: orderBy('-id'),
      limit: 100,
      offset: 0,
      count: true,
      perGroup: { field: 'reviewId', limit: 2 },
    });
    expect([ids(votes.records), votes.total]).toEqual([[6, 5, 4, 2], 4]);
  },

  'other conditions, select and the order apply within each listed group': async (db) => {
    await seedShelves(db);
    const cheapest = (authors: [number, number], price: string) =>
      db.books.list({
        where: [where('authorId', ...authors), op('price', 'gte', price)],
        order: orderBy('-price', 'id'),
        limit: 100,
        offset: 0,
        count: true,
        perGroup: { field: 'authorId', limit: 2 },
        select: ['price'],
      });
    const books = await cheapest([3, 2], '5.00');
    expect(books).toStrictEqual({
      records: [
        { id: 4, price: '100.00' },
        { id: 1, price: '50.00' },
        { id: 2, price: '20.00' },
      ],
      total: 3,
    });
    // The same query with other values (a store may keep its statement): the same rules.
    expect(await cheapest([2, 1], '1.00')).toStrictEqual({
      records: [
        { id: 2, price: '20.00' },
        { id: 5, price: '1.00' },
      ],
      total: 2,
    });
  },

  'a value listed twice counts once; after and offset page through the listed groups': async (db) => {
    await seedShelves(db);
    const page = (extra: Partial<ListQuery>) =>
      perAuthor(db, 3, ['id'], { where: [where('authorId', 3, 3, 2)], ...extra });
    expect(ids((await page({})).records)).toEqual([1, 2, 3, 4, 5]);
    expect(ids((await page({ after: [3] })).records)).toEqual([4, 5]);
    const second = await page({ limit: 2, offset: 2, count: true });
    expect([ids(second.records), second.total]).toEqual([[3, 4], 5]);
  },

  'many listed values, most without records': async (db) => {
    await seedShelves(db);
    const many = Array.from({ length: 250 }, (_, i) => 250 - i);
    const books = await perAuthor(db, 3, ['-id'], { where: [where('authorId', ...many)], count: true });
    expect([ids(books.records), books.total]).toEqual([[7, 6, 5, 4, 2], 5]);
  },

  'null is one group of its own': async (db) => {
    await seedShelves(db);
    for (const bookId of [null, 1, null, null, 1, null, 2]) await db.awards.create({ name: 'Prize', bookId });
    const awards = await db.awards.list({
      where: [],
      order: orderBy('id'),
      limit: 100,
      offset: 0,
      count: true,
      perGroup: { field: 'bookId', limit: 2 },
    });
    expect([ids(awards.records), awards.total]).toEqual([[1, 2, 3, 5, 7], 5]);
  },
});
