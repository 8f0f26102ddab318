import type { StoreTransaction } from '@resourcery/core/store';
import { expect } from 'vitest';
import { ids } from './fixtures.js';
import { all, CREATED, type Library, libraryGroup } from './library.js';
import { R1, R2, R3, seedTree, snapshot } from './reference-cases.js';

class Abort extends Error {}

/** The library's collections bound to a transaction. */
function within(db: Library, tx: StoreTransaction) {
  return {
    authors: tx.collection(db.schemas.authors),
    books: tx.collection(db.schemas.books),
    reviews: tx.collection(db.schemas.reviews),
    awards: tx.collection(db.schemas.awards),
  };
}

/** Runs `work` in a store transaction that must reject with the error `work` throws. */
async function rejected(db: Library, work: (tx: StoreTransaction) => Promise<unknown>): Promise<void> {
  const outcome = await db.store
    .transaction(async (tx) => {
      await work(tx);
      throw new Abort('work failed');
    })
    .catch((error: unknown) => error);
  expect(outcome).toBeInstanceOf(Abort);
}

/** Store transactions: the writes to every collection commit together or not at all. */
export const storeTransactionCases = libraryGroup('store transaction', {
  'commits the writes to several collections together, reading its own writes': async (db) => {
    await seedTree(db);
    const answer = await db.store.transaction(async (tx) => {
      const { authors, books, awards } = within(db, tx);
      const austen = await authors.create({ name: 'Austen' });
      const emma = await books.create({ title: 'Emma', authorId: austen.id, createdAt: CREATED });
      expect(await books.find(emma.id, [])).toStrictEqual(emma);
      await awards.update(3, { bookId: emma.id }, []);
      await authors.update(2, { country: 'US' }, []);
      return emma.id;
    });
    expect(answer).toBe(3);
    expect(ids(await all(db.authors))).toEqual([1, 2, 3]);
    expect((await db.authors.find(2, []))?.country).toBe('US');
    expect(await db.books.find(3, [])).toMatchObject({ title: 'Emma', authorId: 3 });
    expect((await db.awards.find(3, []))?.bookId).toBe(3);
  },

  'undoes the writes to every collection when work rejects': async (db) => {
    await seedTree(db);
    const before = await snapshot(db);
    await rejected(db, async (tx) => {
      const { authors, books, reviews, awards } = within(db, tx);
      const austen = await authors.create({ name: 'Austen' });
      const emma = await books.create({ title: 'Emma', authorId: austen.id, createdAt: CREATED });
      await reviews.create({ id: '99999999-0000-4000-8000-000000000000', bookId: emma.id, rating: 1 });
      await books.update(1, { title: 'Dune II', price: '5.00', meta: { changed: true } }, []);
      await awards.destroy(3, []);
      await reviews.destroy(R3, []);
      await authors.update(1, { name: 'Frank Herbert' }, []);
    });
    expect(await snapshot(db)).toStrictEqual(before);
  },

  'a nested transaction that rejects undoes only its own writes': async (db) => {
    await seedTree(db);
    await db.store.transaction(async (tx) => {
      const { authors } = within(db, tx);
      await authors.update(1, { country: 'US' }, []);
      const inner = await tx
        .transaction(async (nested) => {
          const nestedBooks = nested.collection(db.schemas.books);
          await nestedBooks.create({ title: 'Emma', authorId: 2, createdAt: CREATED });
          await nested.collection(db.schemas.authors).update(1, { name: 'Changed' }, []);
          await nestedBooks.destroy(1, []);
          throw new Abort('inner failed');
        })
        .catch((error: unknown) => error);
      expect(inner).toBeInstanceOf(Abort);
      expect(ids(await all(within(db, tx).books))).toEqual([1, 2]);
      await authors.create({ name: 'Austen' });
    });
    expect((await all(db.authors)).map((author) => [author.name, author.country])).toEqual([
      ['Herbert', 'US'],
      ['Dick', null],
      ['Austen', null],
    ]);
    expect(ids(await all(db.books))).toEqual([1, 2]);
    expect(ids(await all(db.reviews))).toEqual([R1, R2, R3]);
  },

  'a nested transaction that resolves is undone with the outer one': async (db) => {
    await seedTree(db);
    const before = await snapshot(db);
    await rejected(db, async (tx) => {
      await tx.transaction(async (nested) => {
        await nested.collection(db.schemas.authors).create({ name: 'Austen' });
        await nested.collection(db.schemas.books).destroy(2, []);
      });
      expect(ids(await all(within(db, tx).books))).toEqual([1]);
    });
    expect(await snapshot(db)).toStrictEqual(before);
  },

  "a collection's transaction nests inside the store's": async (db) => {
    await seedTree(db);
    await db.store.transaction(async (tx) => {
      const { authors, books } = within(db, tx);
      await authors.create({ name: 'Austen' });
      const inner = await books
        .transaction(async (nested) => {
          await nested.create({ title: 'Emma', authorId: 3, createdAt: CREATED });
          await nested.destroy(1, []);
          throw new Abort('inner failed');
        })
        .catch((error: unknown) => error);
      expect(inner).toBeInstanceOf(Abort);
    });
    expect(ids(await all(db.authors))).toEqual([1, 2, 3]);
    expect(ids(await all(db.books))).toEqual([1, 2]);
    expect(ids(await all(db.votes))).toEqual([1, 2, 3, 4]);
    expect((await db.awards.find(1, []))?.bookId).toBe(1);
  },
});
