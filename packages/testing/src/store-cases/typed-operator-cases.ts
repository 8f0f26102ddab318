import type { Collection, Condition, ListQuery } from '@resourcery/core/store';
import { expect } from 'vitest';
import { ids, op, orderBy, where } from './fixtures.js';
import { addBook, all, type Library, libraryGroup, uuid } from './library.js';

/** The ids of the records of `collection` matching every condition, in id order. */
async function found(collection: Collection, ...conditions: Condition[]) {
  return ids(await all(collection, { where: conditions }));
}

/** A relation filter: `field` holds the id of a record of `collection` matching `conditions`. */
function related(field: string, collection: string, ...conditions: Condition[]): Condition {
  return { field, values: [], related: { collection, where: conditions } };
}

// Books 1 to 7: decimals out of text order, date-times a millisecond apart, nulls.
const PRICES = ['10.00', '9.99', null, '-0.50', '100.00', '-10.50', '9.99'];
const TIMES = [
  '2024-05-01T12:00:00.000Z',
  '2024-05-01T12:00:00.001Z',
  null,
  '1969-12-31T23:59:59.999Z',
  '0001-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  '2024-05-01T12:00:00.000Z',
];

/**
 * Authors 1 (UK, born 1920-10-08), 2 (FR, 1775-12-16), 3 (no country, 2024-02-29), 4 (UK, no
 * date); books 1 to 7 by authors 1, 2, 1, 3, 4, 2, 1 with {@link PRICES} and {@link TIMES};
 * reviews `aa` (book 1, rating 5), `bb` (book 2, 2), `cc` (book 4, 4), `dd` (book 1, 1).
 */
export async function seedLibrary(db: Library): Promise<void> {
  const authors = [
    ['Herbert', 'UK', '1920-10-08'],
    ['Austen', 'FR', '1775-12-16'],
    ['Dick', null, '2024-02-29'],
    ['Le Guin', 'UK', null],
  ];
  for (const [name, country, born] of authors) await db.authors.create({ name, country, born });
  for (const [index, authorId] of [1, 2, 1, 3, 4, 2, 1].entries()) {
    await addBook(db, { title: `T${index + 1}`, authorId, price: PRICES[index], publishedAt: TIMES[index] });
  }
  const reviews: [string, number, number][] = [
    ['aa', 1, 5],
    ['bb', 2, 2],
    ['cc', 4, 4],
    ['dd', 1, 1],
  ];
  for (const [head, bookId, rating] of reviews) await db.reviews.create({ id: uuid(head), bookId, rating });
}

/** Operators on decimals, date-times, dates, uuids and nullable strings. */
export const typedOperatorCases = libraryGroup('list operators on types', {
  'compares decimals numerically, never matching null': async (db) => {
    await seedLibrary(db);
    expect(await found(db.books, op('price', 'gt', '9.99'))).toEqual([1, 5]);
    expect(await found(db.books, op('price', 'gte', '9.99'))).toEqual([1, 2, 5, 7]);
    expect(await found(db.books, op('price', 'lt', '-0.50'))).toEqual([6]);
    expect(await found(db.books, op('price', 'lte', '-0.50'))).toEqual([4, 6]);
    expect(await found(db.books, op('price', 'ne', '9.99'))).toEqual([1, 4, 5, 6]);
    expect(await found(db.books, op('price', 'gt', '-1.00'), op('price', 'lt', '10.00'))).toEqual([2, 4, 7]);
    expect(await found(db.books, op('price', 'null', true))).toEqual([3]);
  },
  'compares date-times to the millisecond and dates by day': async (db) => {
    await seedLibrary(db);
    const noon = '2024-05-01T12:00:00.000Z';
    expect(await found(db.books, op('publishedAt', 'gt', noon))).toEqual([2, 6]);
    expect(await found(db.books, op('publishedAt', 'gte', noon))).toEqual([1, 2, 6, 7]);
    expect(await found(db.books, op('publishedAt', 'lt', '1970-01-01T00:00:00.000Z'))).toEqual([4, 5]);
    expect(await found(db.books, op('publishedAt', 'lte', '0001-01-01T00:00:00.000Z'))).toEqual([5]);
    expect(await found(db.books, op('publishedAt', 'ne', noon))).toEqual([2, 4, 5, 6]);
    expect(await found(db.books, op('publishedAt', 'null', true))).toEqual([3]);
    expect(await found(db.authors, op('born', 'gt', '1920-10-07'))).toEqual([1, 3]);
    expect(await found(db.authors, op('born', 'lte', '1920-10-08'))).toEqual([1, 2]);
    expect(await found(db.authors, op('born', 'ne', '2024-02-29'))).toEqual([1, 2]);
    expect(await found(db.authors, op('born', 'null', false), op('born', 'lt', '2000-01-01'))).toEqual([1, 2]);
  },
  'compares uuids as their lowercase text': async (db) => {
    await seedLibrary(db);
    const reviews = async (...conditions: Condition[]) =>
      (await all(db.reviews, { where: conditions })).map((review) => review.id);
    expect(await reviews(op('id', 'gt', uuid('bb')))).toEqual([uuid('cc'), uuid('dd')]);
    expect(await reviews(op('id', 'lte', uuid('bb')))).toEqual([uuid('aa'), uuid('bb')]);
    expect(await reviews(op('id', 'ne', uuid('cc')), op('rating', 'gte', 2))).toEqual([uuid('aa'), uuid('bb')]);
  },
  'a nullable string: comparisons, prefix and contains never match null': async (db) => {
    await seedLibrary(db);
    expect(await found(db.authors, op('country', 'ne', 'UK'))).toEqual([2]);
    expect(await found(db.authors, op('country', 'lt', 'UK'))).toEqual([2]);
    expect(await found(db.authors, op('country', 'prefix', ''))).toEqual([1, 2, 4]);
    expect(await found(db.authors, op('country', 'contains', ''))).toEqual([1, 2, 4]);
    expect(await found(db.authors, op('country', 'contains', 'K'))).toEqual([1, 4]);
    expect(await found(db.authors, op('country', 'null', true))).toEqual([3]);
  },
});

/** Relation filters: `field IN (ids of the related records matching the conditions)`. */
export const relationFilterCases = libraryGroup('list relation filters', {
  'keeps the records whose related record matches, with operators': async (db) => {
    await seedLibrary(db);
    const authors = db.schemas.authors.name;
    expect(await found(db.books, related('authorId', authors, where('country', 'UK')))).toEqual([1, 3, 5, 7]);
    expect(await found(db.books, related('authorId', authors, op('country', 'null', true)))).toEqual([4]);
    expect(await found(db.books, related('authorId', authors, op('country', 'ne', 'UK')))).toEqual([2, 6]);
    expect(await found(db.books, related('authorId', authors, op('born', 'lt', '1900-01-01')))).toEqual([2, 6]);
    expect(await found(db.books, related('authorId', authors, where('country', 'Nowhere')))).toEqual([]);
    expect(await found(db.books, related('authorId', authors))).toEqual([1, 2, 3, 4, 5, 6, 7]);
  },
  'combines with other conditions, pages and counts': async (db) => {
    await seedLibrary(db);
    const uk = related('authorId', db.schemas.authors.name, where('country', 'UK'));
    expect(await found(db.books, uk, op('price', 'gte', '9.99'))).toEqual([1, 5, 7]);
    expect(await found(db.books, uk, related('authorId', db.schemas.authors.name, op('name', 'prefix', 'Le')))).toEqual(
      [5],
    );
    const query: ListQuery = { where: [uk], order: orderBy('-price', 'id'), limit: 2, offset: 1, count: true };
    const page = await db.books.list(query);
    expect([ids(page.records), page.total]).toEqual([[1, 7], 4]);
    const scoped = await db.books.find(4, [uk]);
    expect(scoped).toBeUndefined();
    expect((await db.books.find(3, [uk]))?.id).toBe(3);
  },
  'follows relations of relations, uuid keys and nullable keys': async (db) => {
    await seedLibrary(db);
    const { authors, books, reviews } = db.schemas;
    const byUk = related('bookId', books.name, related('authorId', authors.name, where('country', 'UK')));
    expect((await all(db.reviews, { where: [byUk] })).map((review) => review.id)).toEqual([uuid('aa'), uuid('dd')]);
    for (const [reviewId, up] of [
      [uuid('aa'), true],
      [uuid('bb'), false],
      [uuid('cc'), true],
      [uuid('aa'), false],
    ] as const) {
      await db.votes.create({ reviewId, up });
    }
    expect(await found(db.votes, related('reviewId', reviews.name, op('rating', 'gte', 4)))).toEqual([1, 3, 4]);
    expect(await found(db.votes, related('reviewId', reviews.name, byUk), where('up', true))).toEqual([1]);
    for (const bookId of [1, null, 2, 5]) await db.awards.create({ name: 'Prize', bookId });
    expect(await found(db.awards, related('bookId', books.name, op('price', 'gt', '0.00')))).toEqual([1, 3, 4]);
    expect(await found(db.awards, related('bookId', books.name, op('price', 'null', true)))).toEqual([]);
  },
});
