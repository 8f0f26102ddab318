import { expect } from 'vitest';
import { ids } from './fixtures.js';
import { addBook, all, type Library, libraryGroup, uuid, violation } from './library.js';

/** The `ConstraintViolation` a write breaking a unique set or a foreign key must throw. */
function refused(kind: 'unique' | 'foreign_key', field: string) {
  return { name: 'ConstraintViolation', kind, field, referencedBy: undefined };
}

/** Two authors (ids 1 and 2) and Dune (book 1, isbn X-1, by author 1). */
async function seedDune(db: Library) {
  const herbert = await db.authors.create({ name: 'Herbert' });
  const dick = await db.authors.create({ name: 'Dick' });
  const dune = await addBook(db, { title: 'Dune', authorId: herbert.id, isbn: 'X-1', price: '9.99' });
  return { herbert, dick, dune };
}

/** Unique sets: no two records share the values of a set; `null` never collides. */
export const uniqueCases = libraryGroup('unique', {
  'refuses a taken value of a unique attribute, naming it; the refused create changes nothing': async (db) => {
    const { dick, dune } = await seedDune(db);
    expect(await violation(addBook(db, { title: 'Ubik', authorId: dick.id, isbn: 'X-1' }))).toEqual(
      refused('unique', 'isbn'),
    );
    expect(await all(db.books)).toStrictEqual([dune]);
    expect(await addBook(db, { title: 'Ubik', authorId: dick.id, isbn: 'x-1' })).toMatchObject({ isbn: 'x-1' });
  },

  'refuses a taken combination, naming the last attribute of the set': async (db) => {
    const { herbert, dick, dune } = await seedDune(db);
    expect(await violation(addBook(db, { title: 'Dune', authorId: herbert.id }))).toEqual(refused('unique', 'title'));
    expect(await all(db.books)).toStrictEqual([dune]);
    // Each value alone is free to repeat.
    expect(await addBook(db, { title: 'Dune', authorId: dick.id })).toMatchObject({ title: 'Dune', authorId: 2 });
    expect(await addBook(db, { title: 'Dune Messiah', authorId: herbert.id })).toMatchObject({ authorId: 1 });
  },

  'null never collides': async (db) => {
    const { herbert } = await seedDune(db);
    for (const title of ['A', 'B', 'C']) await addBook(db, { title, authorId: herbert.id, isbn: null });
    expect((await all(db.books)).map((book) => book.isbn)).toEqual(['X-1', null, null, null]);
    expect(await db.books.update(1, { isbn: null }, [])).toMatchObject({ isbn: null });
  },

  'an update to a taken value is refused and changes nothing': async (db) => {
    const { herbert, dick } = await seedDune(db);
    const ubik = await addBook(db, { title: 'Ubik', authorId: dick.id, isbn: 'X-2' });
    const dune2 = await addBook(db, { title: 'Dune', authorId: dick.id });
    expect(await violation(db.books.update(ubik.id, { isbn: 'X-1', price: '1.00' }, []))).toEqual(
      refused('unique', 'isbn'),
    );
    expect(await violation(db.books.update(ubik.id, { title: 'Dune' }, []))).toEqual(refused('unique', 'title'));
    // Changing the first field of a set still names the last one.
    expect(await violation(db.books.update(dune2.id, { authorId: herbert.id }, []))).toEqual(
      refused('unique', 'title'),
    );
    expect(await db.books.find(ubik.id, [])).toStrictEqual(ubik);
    expect(await db.books.find(dune2.id, [])).toStrictEqual(dune2);
  },

  'rewriting a record with its own values is no collision': async (db) => {
    const { herbert, dune } = await seedDune(db);
    const same = await db.books.update(dune.id, { title: 'Dune', authorId: herbert.id, isbn: 'X-1' }, []);
    expect(same).toStrictEqual(dune);
  },

  'a value freed by an update or a destroy can be taken again': async (db) => {
    const { herbert, dick, dune } = await seedDune(db);
    const ubik = await addBook(db, { title: 'Ubik', authorId: dick.id, isbn: 'X-2' });
    expect(await db.books.update(dune.id, { isbn: 'X-3', title: 'Dune I' }, [])).toMatchObject({ isbn: 'X-3' });
    expect(await addBook(db, { title: 'Dune', authorId: herbert.id, isbn: 'X-1' })).toMatchObject({ isbn: 'X-1' });
    expect(await db.books.destroy(ubik.id, [])).toBe(true);
    expect(await addBook(db, { title: 'Ubik', authorId: dick.id, isbn: 'X-2' })).toMatchObject({ isbn: 'X-2' });
    expect((await all(db.books)).map((book) => book.isbn)).toEqual(['X-3', 'X-1', 'X-2']);
  },
});

/** Foreign keys: a non-null value names an existing record of the referenced collection. */
export const foreignKeyCases = libraryGroup('foreign keys', {
  'a create naming no record is refused, naming the field; nothing is stored': async (db) => {
    const { dune } = await seedDune(db);
    expect(await violation(addBook(db, { title: 'Ghost', authorId: 99 }))).toEqual(refused('foreign_key', 'authorId'));
    expect(await all(db.books)).toStrictEqual([dune]);
    expect(await violation(db.reviews.create({ id: uuid('1'), bookId: 99, rating: 3 }))).toEqual(
      refused('foreign_key', 'bookId'),
    );
    expect(await violation(db.votes.create({ reviewId: uuid('2'), up: true }))).toEqual(
      refused('foreign_key', 'reviewId'),
    );
    expect(await all(db.reviews)).toEqual([]);
    expect(await all(db.votes)).toEqual([]);
  },

  'an update naming no record is refused and changes nothing': async (db) => {
    const { dune } = await seedDune(db);
    expect(await violation(db.books.update(dune.id, { authorId: 99, price: '1.00' }, []))).toEqual(
      refused('foreign_key', 'authorId'),
    );
    expect(await db.books.find(dune.id, [])).toStrictEqual(dune);
    expect(await db.books.update(dune.id, { authorId: 2 }, [])).toMatchObject({ authorId: 2 });
  },

  'a null reference refers to nothing and is allowed': async (db) => {
    await seedDune(db);
    const award = await db.awards.create({ name: 'Hugo', bookId: null, reviewId: null });
    expect(award).toStrictEqual({ id: 1, name: 'Hugo', bookId: null, reviewId: null });
    expect(await db.awards.update(award.id, { bookId: 1 }, [])).toMatchObject({ bookId: 1 });
    expect(await db.awards.update(award.id, { bookId: null }, [])).toMatchObject({ bookId: null });
  },

  'a destroyed record can no longer be referred to': async (db) => {
    const { dick } = await seedDune(db);
    const ubik = await addBook(db, { title: 'Ubik', authorId: dick.id });
    const review = await db.reviews.create({ id: uuid('1'), bookId: ubik.id, rating: 5 });
    expect(await db.books.destroy(ubik.id, [])).toBe(true);
    expect(await violation(db.reviews.create({ id: uuid('2'), bookId: ubik.id, rating: 5 }))).toEqual(
      refused('foreign_key', 'bookId'),
    );
    expect(await violation(db.votes.create({ reviewId: review.id, up: false }))).toEqual(
      refused('foreign_key', 'reviewId'),
    );
    expect(await db.authors.destroy(dick.id, [])).toBe(true);
    expect(await violation(addBook(db, { title: 'Valis', authorId: dick.id }))).toEqual(
      refused('foreign_key', 'authorId'),
    );
    expect(ids(await all(db.books))).toEqual([1]);
  },
});
