import { expect } from 'vitest';
import { ids, orderBy, where } from './fixtures.js';
import { addBook, all, type Library, libraryGroup, uuid } from './library.js';

// Out of order on purpose, with digits and letters in every position that decides.
const UUIDS = [
  uuid('c0ffee', 'c0ffee000001'),
  uuid('ffffffff', 'ffffffffffff'),
  uuid('0', '000000000001'),
  uuid('a'),
  uuid('9fffffff', 'ffffffffffff'),
  uuid('0a'),
  uuid('c0ffee', 'c0ffee000000'),
  uuid('00000000', '000000000000'),
];
const SORTED = [...UUIDS].sort();

/** Two books (ids 1 and 2) whose reviews the cases write. */
async function twoBooks(db: Library): Promise<void> {
  const author = await db.authors.create({ name: 'Herbert' });
  await addBook(db, { title: 'Dune', authorId: author.id });
  await addBook(db, { title: 'Ubik', authorId: author.id });
}

/** Uuid ids: given with the values of create, kept as given, ordered as text. */
export const uuidCases = libraryGroup('uuid ids', {
  'keeps the uuid given to create; finds, updates and destroys by it': async (db) => {
    await twoBooks(db);
    const id = uuid('3f2504e0', '0305e82c3301');
    const created = await db.reviews.create({ id, bookId: 1, rating: 4 });
    expect(created).toStrictEqual({ id, bookId: 1, rating: 4, body: null });
    expect(await db.reviews.find(id, [])).toStrictEqual(created);
    expect(await db.reviews.find(id, [where('bookId', 2)])).toBeUndefined();
    const updated = await db.reviews.update(id, { rating: 5, body: 'Better' }, [where('bookId', 1)]);
    expect(updated).toStrictEqual({ id, bookId: 1, rating: 5, body: 'Better' });
    expect(await db.reviews.find(id, [])).toStrictEqual(updated);
    expect(await db.reviews.destroy(id, [where('bookId', 2)])).toBe(false);
    expect(await db.reviews.destroy(id, [])).toBe(true);
    expect(await db.reviews.find(id, [])).toBeUndefined();
    expect(await db.reviews.destroy(id, [])).toBe(false);
  },

  'answers nothing for a uuid that was never stored': async (db) => {
    await twoBooks(db);
    await db.reviews.create({ id: uuid('1'), bookId: 1, rating: 4 });
    const unknown = uuid('2');
    expect(await db.reviews.find(unknown, [])).toBeUndefined();
    expect(await db.reviews.update(unknown, { rating: 1 }, [])).toBeUndefined();
    expect(await db.reviews.destroy(unknown, [])).toBe(false);
    expect(await all(db.reviews)).toHaveLength(1);
  },

  'orders by id as text, in pages, with and without filters': async (db) => {
    await twoBooks(db);
    for (const [index, id] of UUIDS.entries()) {
      await db.reviews.create({ id, bookId: (index % 2) + 1, rating: index % 3 });
    }
    expect(ids(await all(db.reviews))).toEqual(SORTED);
    expect(ids(await all(db.reviews, { order: orderBy('-id') }))).toEqual([...SORTED].reverse());
    const page = await db.reviews.list({ where: [], order: orderBy('id'), limit: 3, offset: 2, count: true });
    expect(ids(page.records)).toEqual(SORTED.slice(2, 5));
    expect(page.total).toBe(UUIDS.length);
    const odd = UUIDS.filter((_, index) => index % 2 === 1).sort();
    expect(ids(await all(db.reviews, { where: [where('bookId', 2)] }))).toEqual(odd);
    const byRating = await all(db.reviews, { order: orderBy('-rating', 'id') });
    const expected = [...UUIDS.entries()]
      .sort(([a, x], [b, y]) => (b % 3) - (a % 3) || (x < y ? -1 : 1))
      .map(([, id]) => id);
    expect(ids(byRating)).toEqual(expected);
  },

  'a destroyed uuid can be created again, in its place in the order': async (db) => {
    await twoBooks(db);
    for (const id of UUIDS) await db.reviews.create({ id, bookId: 1, rating: 3 });
    const [, second, third] = SORTED as [string, string, string];
    expect(await db.reviews.destroy(second, [])).toBe(true);
    expect(await db.reviews.destroy(third, [])).toBe(true);
    expect(await db.reviews.create({ id: second, bookId: 2, rating: 1 })).toMatchObject({ id: second, bookId: 2 });
    expect(ids(await all(db.reviews))).toEqual(SORTED.filter((id) => id !== third));
    expect(await db.reviews.find(second, [])).toStrictEqual({ id: second, bookId: 2, rating: 1, body: null });
  },
});

/** Defaults: a create that leaves an attribute out gets the attribute's default. */
export const defaultCases = libraryGroup('defaults', {
  'a create without the attribute stores its default; given values and null are kept': async (db) => {
    const author = await db.authors.create({ name: 'Herbert' });
    const plain = await addBook(db, { title: 'Dune', authorId: author.id });
    expect(plain).toMatchObject({ format: 'paperback', copies: 0 });
    const given = await addBook(db, { title: 'Ubik', authorId: author.id, format: 'hardcover', copies: 5 });
    expect(given).toMatchObject({ format: 'hardcover', copies: 5 });
    const none = await addBook(db, { title: 'Valis', authorId: author.id, format: null });
    expect(none).toMatchObject({ format: null, copies: 0 });
    const stored = await all(db.books);
    expect(stored.map((book) => [book.format, book.copies])).toEqual([
      ['paperback', 0],
      ['hardcover', 5],
      [null, 0],
    ]);
  },

  'an update leaves the attributes it does not name alone, defaults included': async (db) => {
    const author = await db.authors.create({ name: 'Herbert' });
    await addBook(db, { title: 'Dune', authorId: author.id, format: 'hardcover', copies: 3 });
    expect(await db.books.update(1, { title: 'Dune Messiah' }, [])).toMatchObject({ format: 'hardcover', copies: 3 });
    expect(await db.books.update(1, { format: null }, [])).toMatchObject({ format: null, copies: 3 });
    expect(await db.books.find(1, [])).toMatchObject({ title: 'Dune Messiah', format: null, copies: 3 });
  },
});
