import type { Collection, Id } from '@resourcery/core/store';
import { compareCodePoints } from '@resourcery/core/store';
import { expect } from 'vitest';
import { ids, library, list, orderBy, seed, storeGroup, where } from './fixtures.js';

/** Ids of every record in the order given by the `'-year', 'id'` shorthand. */
async function sorted(store: Collection, ...keys: string[]): Promise<Id[]> {
  return ids(await list(store, orderBy(...keys)));
}

// Includes what collations usually get "wrong" for code point order: case, accents, a private
// use character (U+E000) and U+FFFD, which UTF-16 puts after the surrogate pairs of emoji,
// and trailing spaces and tabs, which PAD SPACE collations compare as equal.
const NAMES = ['a', 'B', 'é', '\uFFFD', '😀', 'Z', 'ab', 'aB', 'a ', 'a\t', ' ', '\uE000', 'z', '~', '\u00A0', 'A'];

/** list order: several keys, both directions, code point strings, nulls first. */
export const orderCases = storeGroup('list order', {
  'orders by several keys, ascending and descending, id last': async (store) => {
    await seed(store, library);
    expect(await sorted(store, 'author', '-year', 'id')).toEqual([3, 2, 7, 5, 4, 6, 1]);
    expect(await sorted(store, '-author', 'name', 'id')).toEqual([6, 1, 4, 5, 2, 3, 7]);
    expect(await sorted(store, 'price', 'id')).toEqual([3, 7, 2, 4, 5, 1, 6]);
    expect(await sorted(store, '-price', 'id')).toEqual([6, 1, 4, 5, 2, 7, 3]);
    expect(await sorted(store, '-price', '-id')).toEqual([6, 1, 5, 4, 2, 7, 3]);
    expect(await sorted(store, '-id')).toEqual([7, 6, 5, 4, 3, 2, 1]);
  },
  'sorts strings by code point, case-sensitively': async (store) => {
    await seed(
      store,
      NAMES.map((name) => ({ name, author: name })),
    );
    const expected = [...NAMES].sort(compareCodePoints);
    const byName = await list(store, orderBy('name', 'id'));
    expect(byName.map((record) => record.name)).toEqual(expected);
    const byAuthor = await list(store, orderBy('-author', 'id'));
    expect(byAuthor.map((record) => record.author)).toEqual([...expected].reverse());
  },
  'puts null first ascending and last descending': async (store) => {
    await seed(store, library);
    expect(await sorted(store, 'year', 'id')).toEqual([4, 7, 2, 3, 1, 6, 5]);
    expect(await sorted(store, '-year', 'id')).toEqual([5, 6, 1, 3, 2, 4, 7]);
    expect(await sorted(store, '-year', '-id')).toEqual([5, 6, 1, 3, 2, 7, 4]);
    expect(await sorted(store, 'available', 'id')).toEqual([4, 7, 2, 5, 1, 3, 6]);
    expect(await sorted(store, '-available', 'id')).toEqual([1, 3, 6, 2, 5, 4, 7]);
  },
  'limit and offset page through the order': async (store) => {
    await seed(store, library);
    const page = async (offset: number) =>
      ids((await store.list({ where: [], order: orderBy('name', 'id'), limit: 3, offset, count: false })).records);
    expect(await page(0)).toEqual([6, 1, 2]);
    expect(await page(3)).toEqual([3, 7, 4]);
    expect(await page(6)).toEqual([5]);
    expect(await page(9)).toEqual([]);
    expect(await page(Number.MAX_SAFE_INTEGER)).toEqual([]);
  },
  'counts only when asked, every match regardless of the page': async (store) => {
    await seed(store, library);
    const query = { where: [where('author', 'Austen', 'Dick')], order: orderBy('id'), limit: 2, offset: 0 };
    const uncounted = await store.list({ ...query, count: false });
    expect(ids(uncounted.records)).toEqual([2, 3]);
    expect(uncounted.total).toBeUndefined();
    const counted = await store.list({ ...query, count: true });
    expect(ids(counted.records)).toEqual([2, 3]);
    expect(counted.total).toBe(5);
    const beyond = await store.list({ ...query, offset: 10, count: true });
    expect(beyond).toEqual({ records: [], total: 5 });
    const none = await store.list({ ...query, where: [where('author', 'Nobody')], count: true });
    expect(none).toEqual({ records: [], total: 0 });
  },
});
