import { expect } from 'vitest';
import { ids, list, orderBy, seed, storeGroup, where } from './fixtures.js';

const book = { name: 'Dune', author: 'Herbert' };

/** Ids: assigned by the store from 1, increasing, never reused (the contract's "Create"). */
export const idCases = storeGroup('ids', {
  'assigns ids from 1, increasing': async (store) => {
    const created = await seed(store, [book, book, book]);
    expect(ids(created)).toEqual([1, 2, 3]);
  },
  'never reuses the id of a destroyed record': async (store) => {
    await seed(store, [book, book, book]);
    expect(await store.destroy(2, [])).toBe(true);
    expect((await store.create(book)).id).toBe(4);
  },
  'never reuses the highest id after it was destroyed': async (store) => {
    await seed(store, [book, book]);
    expect(await store.destroy(2, [])).toBe(true);
    expect((await store.create(book)).id).toBe(3);
    expect(await store.destroy(3, [])).toBe(true);
    expect(await store.destroy(1, [])).toBe(true);
    expect((await store.create(book)).id).toBe(4);
  },
});

const tricky = [
  `O'Brien "the" \`quoted\` \\ back\\slash; DROP TABLE books; --`,
  "'); DELETE FROM books WHERE ('1'='1",
  '%_*?[] $1 :name @p0 ?',
  'Łódź, 東京, Ελληνικά, עברית, emoji 😀🚀, combining é (e\u0301)',
  `${'x'.repeat(498)}éé`,
  'é'.repeat(500),
  '😀'.repeat(250),
  'line\nbreak\ttab\r\n',
];

/** What create answers and how every type is stored. */
export const createCases = storeGroup('create', {
  'answers the stored record, null for absent nullable fields': async (store) => {
    const created = await store.create(book);
    const expected = { id: 1, name: 'Dune', author: 'Herbert', year: null, price: null, available: null };
    expect(created).toStrictEqual(expected);
    expect(await store.find(1, [])).toStrictEqual(expected);
  },
  'keeps integers, numbers and booleans with their types': async (store) => {
    const values = [
      { ...book, year: 1965, price: 9.99, available: true },
      { ...book, year: -44, price: 0.1, available: false },
      { ...book, year: Number.MAX_SAFE_INTEGER, price: 1e-7, available: null },
      { ...book, year: -Number.MAX_SAFE_INTEGER, price: -1.5e300, available: true },
      { ...book, year: 0, price: 0, available: false },
    ];
    const created = await seed(store, values);
    for (const [index, value] of values.entries()) {
      const expected = { id: index + 1, ...value };
      expect(created[index]).toStrictEqual(expected);
      expect(await store.find(index + 1, [])).toStrictEqual(expected);
    }
  },
  'keeps quotes, unicode and 500-character strings exactly': async (store) => {
    const created = await seed(
      store,
      tricky.map((text, index) => ({ name: text, author: `${text}|${index}` })),
    );
    for (const [index, text] of tricky.entries()) {
      expect(created[index]).toMatchObject({ name: text, author: `${text}|${index}` });
      expect((await store.find(index + 1, []))?.name).toBe(text);
      expect(ids(await list(store, orderBy('id'), [where('name', text)]))).toEqual([index + 1]);
    }
  },
});
