import type { ListQuery } from '@resourcery/core/store';
import { expect } from 'vitest';
import { library, op, orderBy, seed, storeGroup, where } from './fixtures.js';
import { all, libraryGroup, uuid } from './library.js';
import { seedLibrary } from './typed-operator-cases.js';

/** Sparse lists (`select`): `id` and the selected attributes, nothing else. */
export const selectCases = storeGroup('list select', {
  'answers id and the selected attributes only': async (store) => {
    await seed(store, library);
    const query: ListQuery = { where: [], order: orderBy('id'), limit: 2, offset: 0, count: false };
    const picked = await store.list({ ...query, select: ['year', 'name'] });
    expect(picked.records).toStrictEqual([
      { id: 1, name: 'Dune', year: 1965 },
      { id: 2, name: 'Emma', year: 1815 },
    ]);
    expect((await store.list({ ...query, select: [] })).records).toStrictEqual([{ id: 1 }, { id: 2 }]);
    expect((await store.list({ ...query, select: ['id', 'available'] })).records).toStrictEqual([
      { id: 1, available: true },
      { id: 2, available: false },
    ]);
  },
  'filters, sorts, pages and counts by attributes it does not answer': async (store) => {
    await seed(store, library);
    const page = await store.list({
      where: [op('year', 'null', false), where('author', 'Austen', 'Herbert')],
      order: orderBy('-price', 'id'),
      limit: 2,
      offset: 1,
      count: true,
      select: ['price'],
    });
    expect(page).toStrictEqual({
      records: [
        { id: 1, price: 9.99 },
        { id: 2, price: 4.5 },
      ],
      total: 4,
    });
    const after = await store.list({
      where: [],
      order: orderBy('year', 'id'),
      limit: 3,
      offset: 0,
      count: true,
      after: [1815, 2],
      select: ['name'],
    });
    expect(after).toStrictEqual({
      records: [
        { id: 3, name: 'Persuasion' },
        { id: 1, name: 'Dune' },
        { id: 6, name: 'Children of Dune' },
      ],
      total: 7,
    });
  },
});

/** Sparse lists of the data model's types, uuid ids and per-group limits. */
export const selectTypeCases = libraryGroup('list select on types', {
  'answers the selected values in their canonical form': async (db) => {
    await seedLibrary(db);
    await db.books.update(1, { meta: { tags: ['sf'] } }, []);
    const books = await all(db.books, { where: [where('id', 1, 3, 4)], select: ['price', 'publishedAt', 'meta'] });
    expect(books).toStrictEqual([
      { id: 1, price: '10.00', publishedAt: '2024-05-01T12:00:00.000Z', meta: { tags: ['sf'] } },
      { id: 3, price: null, publishedAt: null, meta: null },
      { id: 4, price: '-0.50', publishedAt: '1969-12-31T23:59:59.999Z', meta: null },
    ]);
    const authors = await all(db.authors, { order: orderBy('-born', 'id'), limit: 2, select: ['born'] });
    expect(authors).toStrictEqual([
      { id: 3, born: '2024-02-29' },
      { id: 1, born: '1920-10-08' },
    ]);
    const reviews = await all(db.reviews, { where: [op('rating', 'gte', 4)], select: ['rating'] });
    expect(reviews).toStrictEqual([
      { id: uuid('aa'), rating: 5 },
      { id: uuid('cc'), rating: 4 },
    ]);
  },
  'works with a per-group limit': async (db) => {
    await seedLibrary(db);
    const books = await db.books.list({
      where: [],
      order: orderBy('-price', 'id'),
      limit: 3,
      offset: 0,
      count: true,
      perGroup: { field: 'authorId', limit: 1 },
      select: ['title'],
    });
    expect(books).toStrictEqual({
      records: [
        { id: 5, title: 'T5' },
        { id: 1, title: 'T1' },
        { id: 2, title: 'T2' },
      ],
      total: 4,
    });
  },
});
