import type { Collection, StoredRecord } from '@resourcery/core/store';
import { expect } from 'vitest';
import type { StoreCaseGroup } from './fixtures.js';
import { ids } from './fixtures.js';
import { addBook, all, CREATED, type Library, libraryGroup, uuid, violation } from './library.js';

// Bulk creates (`Collection.createMany`, optional: a store without it skips these cases): the
// records in the order given, each as `create` answers it, all or none.

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * `collection.createMany(values)`: the groups that call it declare `needs: 'createMany'`, so the
 * suite only runs them on collections that have it.
 *
 * @example
 * ```ts
 * const [dune, emma] = await createMany(books, [{ title: 'Dune' }, { title: 'Emma' }]);
 * ```
 */
export function createMany(
  collection: Collection,
  values: readonly Record<string, unknown>[],
): Promise<StoredRecord[]> {
  if (!collection.createMany) throw new Error('this store has no Collection.createMany');
  return collection.createMany(values as Partial<StoredRecord>[]);
}

/** A book's values, `createdAt` filled in. */
function book(title: string, authorId: number, more: Record<string, unknown> = {}): Record<string, unknown> {
  return { title, authorId, createdAt: CREATED, ...more };
}

/** Two authors (ids 1 and 2) and Dune (book 1, isbn X-1, by author 1). */
async function seedDune(db: Library) {
  await db.authors.create({ name: 'Herbert' });
  await db.authors.create({ name: 'Dick' });
  return addBook(db, { title: 'Dune', authorId: 1, isbn: 'X-1', price: '9.99' });
}

/** Bulk creates on the library's collections. */
export const createManyCases: StoreCaseGroup = {
  needs: 'createMany',
  ...libraryGroup('create many', {
    'answers the records in the order given, integer ids ascending after the stored ones': async (db) => {
      const herbert = await db.authors.create({ name: 'Herbert' });
      // Each record writes other attributes: the ones it leaves out are null, as in `create`.
      const made = await createMany(db.authors, [
        { name: 'Austen', country: 'UK' },
        { name: 'Dick', born: '1928-12-16' },
        { name: 'Le Guin', country: 'US', born: '1929-10-21' },
      ]);
      expect(made).toStrictEqual([
        { id: 2, name: 'Austen', country: 'UK', born: null },
        { id: 3, name: 'Dick', country: null, born: '1928-12-16' },
        { id: 4, name: 'Le Guin', country: 'US', born: '1929-10-21' },
      ]);
      expect(await all(db.authors)).toStrictEqual([herbert, ...made]);
      expect(await createMany(db.authors, [])).toStrictEqual([]);
      expect((await db.authors.create({ name: 'Tolkien' })).id).toBe(5);
    },

    'each record gets the defaults create gives, whatever the others write': async (db) => {
      await db.authors.create({ name: 'Herbert' });
      const made = await createMany(db.books, [
        book('Dune', 1),
        book('Dune Messiah', 1, {
          isbn: 'X-2',
          price: '9.50',
          publishedAt: '1969-10-15T08:30:00.000Z',
          meta: { tags: ['sf'], pages: 256 },
          format: null,
          copies: 3,
        }),
        book('Children of Dune', 1, { price: '12.00', format: 'hardcover' }),
      ]);
      const absent = { isbn: null, price: null, publishedAt: null, meta: null, format: 'paperback', copies: 0 };
      expect(made).toStrictEqual([
        { id: 1, ...book('Dune', 1), ...absent },
        {
          id: 2,
          ...book('Dune Messiah', 1),
          ...{ isbn: 'X-2', price: '9.50', publishedAt: '1969-10-15T08:30:00.000Z' },
          ...{ meta: { tags: ['sf'], pages: 256 }, format: null, copies: 3 },
        },
        { id: 3, ...book('Children of Dune', 1), ...absent, price: '12.00', format: 'hardcover' },
      ]);
      expect(await all(db.books)).toStrictEqual(made);
      // The same values through `create` give the same record.
      await db.authors.create({ name: 'Other' });
      const single = await addBook(db, { title: 'Dune', authorId: 2 });
      expect({ ...single, id: 1, authorId: 1 }).toStrictEqual(made[0]);
    },

    'uuid ids are made when not given, kept when given, and can be referred to': async (db) => {
      await seedDune(db);
      const given = uuid('a1');
      const made = await createMany(db.reviews, [
        { bookId: 1, rating: 4 },
        { id: given, bookId: 1, rating: 5, body: 'Great' },
        { bookId: 1, rating: 3 },
      ]);
      expect(made.map((review) => review.rating)).toEqual([4, 5, 3]);
      expect(made[1]).toStrictEqual({ id: given, bookId: 1, rating: 5, body: 'Great' });
      expect(made[0]).toMatchObject({ bookId: 1, body: null, id: expect.stringMatching(UUID_V4) });
      expect(new Set(ids(made)).size).toBe(3);
      for (const review of made) expect(await db.reviews.find(review.id, [])).toStrictEqual(review);
      const votes = await createMany(db.votes, [
        { reviewId: made[2]?.id, up: true },
        { reviewId: given, up: false },
      ]);
      expect(votes).toStrictEqual([
        { id: 1, reviewId: made[2]?.id, up: true },
        { id: 2, reviewId: given, up: false },
      ]);
    },

    'a unique violation, against a stored record or inside the batch, leaves nothing and throws as create does': async (
      db,
    ) => {
      const dune = await seedDune(db);
      const byCreate = await violation(addBook(db, { title: 'Ubik', authorId: 2, isbn: 'X-1' }));
      expect(byCreate).toEqual({ name: 'ConstraintViolation', kind: 'unique', field: 'isbn', referencedBy: undefined });
      const taken = [book('Valis', 2, { isbn: 'X-2' }), book('Ubik', 2, { isbn: 'X-1' })];
      expect(await violation(createMany(db.books, taken))).toEqual(byCreate);
      const twice = [book('Valis', 2, { isbn: 'X-3' }), book('Ubik', 2, { isbn: 'X-3' })];
      expect(await violation(createMany(db.books, twice))).toEqual(byCreate);
      const sameTitle = [book('Valis', 2), book('Ubik', 2), book('Valis', 2)];
      expect(await violation(createMany(db.books, sameTitle))).toEqual({ ...byCreate, field: 'title' });
      expect(await all(db.books)).toStrictEqual([dune]);
      const made = await createMany(db.books, [book('Valis', 2, { isbn: 'X-3' }), book('Ubik', 2, { isbn: 'X-2' })]);
      expect(made.map((one) => one.title)).toEqual(['Valis', 'Ubik']);
      expect(made[0]?.id).toBeGreaterThan(dune.id as number);
      expect(made[1]?.id).toBeGreaterThan(made[0]?.id as number);
      expect(await all(db.books)).toStrictEqual([dune, ...made]);
    },

    'a missing foreign key leaves nothing and throws as create does': async (db) => {
      const dune = await seedDune(db);
      const byCreate = await violation(addBook(db, { title: 'Ghost', authorId: 99 }));
      expect(byCreate).toEqual({
        name: 'ConstraintViolation',
        kind: 'foreign_key',
        field: 'authorId',
        referencedBy: undefined,
      });
      expect(await violation(createMany(db.books, [book('Ubik', 2), book('Ghost', 99)]))).toEqual(byCreate);
      expect(await all(db.books)).toStrictEqual([dune]);
      const reviews = [
        { id: uuid('1'), bookId: 1, rating: 1 },
        { id: uuid('2'), bookId: 99, rating: 3 },
      ];
      expect(await violation(createMany(db.reviews, reviews))).toEqual({ ...byCreate, field: 'bookId' });
      expect(await all(db.reviews)).toEqual([]);
    },

    'inside a store transaction, a later failure undoes the bulk create': async (db) => {
      const dune = await seedDune(db);
      const failure = new Error('undo');
      const outcome = await db.store
        .transaction(async (tx) => {
          await tx.collection(db.schemas.authors).create({ name: 'Austen' });
          const books = tx.collection(db.schemas.books);
          const made = await createMany(books, [book('Emma', 3), book('Persuasion', 3)]);
          expect(ids(await all(books))).toEqual([1, ...ids(made)]);
          throw failure;
        })
        .catch((error: unknown) => error);
      expect(outcome).toBe(failure);
      expect(ids(await all(db.authors))).toEqual([1, 2]);
      expect(await all(db.books)).toStrictEqual([dune]);
    },

    'inside a nested transaction that fails, only the nested bulk create is undone': async (db) => {
      await seedDune(db);
      await db.store.transaction(async (tx) => {
        const books = tx.collection(db.schemas.books);
        await createMany(books, [book('Ubik', 2)]);
        const nested = tx.transaction(async (inner) => {
          await createMany(inner.collection(db.schemas.books), [book('Valis', 2), book('Emma', 2)]);
          throw new Error('nested');
        });
        await expect(nested).rejects.toThrow('nested');
        await createMany(books, [book('Dune Messiah', 1)]);
      });
      expect((await all(db.books)).map((one) => one.title)).toEqual(['Dune', 'Ubik', 'Dune Messiah']);
    },

    'a batch larger than a statement takes is stored whole, in order': async (db) => {
      await db.authors.create({ name: 'Prolific' });
      // 8,000 books writing 9 columns each: 72,000 values, past every database's parameters.
      const values = Array.from({ length: 8000 }, (_, n) =>
        book(`Book ${n}`, 1, {
          isbn: `I-${n}`,
          price: `${n}.50`,
          publishedAt: CREATED,
          meta: { n },
          format: 'ebook',
          copies: n,
        }),
      );
      const made = await createMany(db.books, values);
      expect(made).toHaveLength(8000);
      expect(made.every((one, n) => one.id === n + 1 && one.title === `Book ${n}` && one.copies === n)).toBe(true);
      const page = await db.books.list({
        where: [],
        order: [{ field: 'id', direction: 'desc' }],
        limit: 1,
        offset: 0,
        count: true,
      });
      expect(page.total).toBe(8000);
      expect(page.records).toStrictEqual([made[7999]]);
    },
  }),
};
