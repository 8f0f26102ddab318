import type { StoredRecord } from '@resourcery/core/store';
import { expect } from 'vitest';
import { ids } from './fixtures.js';
import { addBook, all, LIBRARY, type Library, libraryGroup, uuid, violation } from './library.js';

/** Every record of every collection of the library, in id order. */
export async function snapshot(db: Library): Promise<Record<string, StoredRecord[]>> {
  const entries = await Promise.all(LIBRARY.map(async (name) => [name, await all(db[name])] as const));
  return Object.fromEntries(entries);
}

export const R1 = uuid('1');
export const R2 = uuid('2');
export const R3 = uuid('3');

/**
 * Two authors; Dune (book 1, by author 1) with reviews R1 and R2, Ubik (book 2, by author 2)
 * with R3; votes 1 and 2 on R1, 3 on R2, 4 on R3; awards Hugo (book 1), Nebula (book 2) and
 * Locus (no book).
 */
export async function seedTree(db: Library): Promise<void> {
  const herbert = await db.authors.create({ name: 'Herbert' });
  const dick = await db.authors.create({ name: 'Dick' });
  await addBook(db, { title: 'Dune', authorId: herbert.id });
  await addBook(db, { title: 'Ubik', authorId: dick.id });
  await db.reviews.create({ id: R1, bookId: 1, rating: 5 });
  await db.reviews.create({ id: R2, bookId: 1, rating: 4 });
  await db.reviews.create({ id: R3, bookId: 2, rating: 3 });
  for (const reviewId of [R1, R1, R2, R3]) await db.votes.create({ reviewId, up: true });
  await db.awards.create({ name: 'Hugo', bookId: 1 });
  await db.awards.create({ name: 'Nebula', bookId: 2 });
  await db.awards.create({ name: 'Locus', bookId: null });
}

/** Destroying a record others refer to: restrict (the default), cascade or nullify, all or nothing. */
export const referenceCases = libraryGroup('destroy referenced', {
  'restrict: a record still referred to stays, and the error names who refers to it': async (db) => {
    await seedTree(db);
    const before = await snapshot(db);
    expect(await violation(db.authors.destroy(1, []))).toEqual({
      name: 'ConstraintViolation',
      kind: 'referenced',
      field: undefined,
      referencedBy: { collection: db.schemas.books.name, field: 'authorId' },
    });
    expect(await snapshot(db)).toStrictEqual(before);
    const lonely = await db.authors.create({ name: 'Austen' });
    expect(await db.authors.destroy(lonely.id, [])).toBe(true);
    expect(await db.books.destroy(1, [])).toBe(true);
    expect(await db.authors.destroy(1, [])).toBe(true);
    expect(ids(await all(db.authors))).toEqual([2]);
  },

  'cascade: the referring records are destroyed, and theirs too': async (db) => {
    await seedTree(db);
    expect(await db.books.destroy(1, [])).toBe(true);
    expect(ids(await all(db.books))).toEqual([2]);
    expect(ids(await all(db.reviews))).toEqual([R3]);
    expect(await all(db.votes)).toStrictEqual([{ id: 4, reviewId: R3, up: true }]);
    expect(await db.reviews.destroy(R3, [])).toBe(true);
    expect(await all(db.votes)).toEqual([]);
    expect(ids(await all(db.books))).toEqual([2]);
  },

  'nullify: the referring field becomes null and the records stay': async (db) => {
    await seedTree(db);
    expect(await db.books.destroy(1, [])).toBe(true);
    expect(await all(db.awards)).toStrictEqual([
      { id: 1, name: 'Hugo', bookId: null, reviewId: null },
      { id: 2, name: 'Nebula', bookId: 2, reviewId: null },
      { id: 3, name: 'Locus', bookId: null, reviewId: null },
    ]);
  },

  'a restrict anywhere in the cascade refuses the whole destroy, changing nothing': async (db) => {
    await seedTree(db);
    await db.awards.create({ name: 'Critics', reviewId: R2 });
    const before = await snapshot(db);
    expect(await violation(db.books.destroy(1, []))).toEqual({
      name: 'ConstraintViolation',
      kind: 'referenced',
      field: undefined,
      referencedBy: { collection: db.schemas.awards.name, field: 'reviewId' },
    });
    expect(await snapshot(db)).toStrictEqual(before);
    // Ubik's tree holds no restricted record: it goes, cascading and nullifying.
    expect(await db.books.destroy(2, [])).toBe(true);
    expect(ids(await all(db.reviews))).toEqual([R1, R2]);
    expect(ids(await all(db.votes))).toEqual([1, 2, 3]);
    expect((await db.awards.find(2, []))?.bookId).toBeNull();
  },

  'a destroy whose transaction rejects comes back whole, references included': async (db) => {
    await seedTree(db);
    const before = await snapshot(db);
    const failure = new Error('undo it');
    const outcome = await db.store
      .transaction(async (tx) => {
        expect(await tx.collection(db.schemas.books).destroy(1, [])).toBe(true);
        expect(ids(await all(tx.collection(db.schemas.reviews)))).toEqual([R3]);
        throw failure;
      })
      .catch((error: unknown) => error);
    expect(outcome).toBe(failure);
    expect(await snapshot(db)).toStrictEqual(before);
    const again = await db.books
      .transaction(async (books) => {
        await books.destroy(1, []);
        throw failure;
      })
      .catch((error: unknown) => error);
    expect(again).toBe(failure);
    expect(await snapshot(db)).toStrictEqual(before);
  },
});
