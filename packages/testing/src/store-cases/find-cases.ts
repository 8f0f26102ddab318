import { expect } from 'vitest';
import { ids, library, list, seed, storeGroup, where } from './fixtures.js';

/** find: by id, inside the resource's scope. */
export const findOneCases = storeGroup('find', {
  'finds a record by id': async (store) => {
    const [, emma] = await seed(store, library);
    expect(await store.find(2, [])).toStrictEqual(emma);
  },
  'answers undefined for an id that does not exist': async (store) => {
    await seed(store, library.slice(0, 2));
    expect(await store.find(3, [])).toBeUndefined();
    expect(await store.find(Number.MAX_SAFE_INTEGER, [])).toBeUndefined();
  },
  'answers only records inside the where scope': async (store) => {
    const [dune] = await seed(store, library);
    expect(await store.find(1, [where('author', 'Herbert')])).toStrictEqual(dune);
    expect(await store.find(1, [where('author', 'Austen', 'Herbert')])).toStrictEqual(dune);
    expect(await store.find(1, [where('author', 'Herbert'), where('year', 1965)])).toStrictEqual(dune);
    expect(await store.find(1, [where('author', 'Austen')])).toBeUndefined();
    expect(await store.find(1, [where('author', 'Herbert'), where('year', 1966)])).toBeUndefined();
    expect(await store.find(1, [where('author', 'herbert')])).toBeUndefined();
  },
});

/** list filters: `=` and `IN`, ANDed, exact for every type. */
export const filterCases = storeGroup('list filters', {
  'without conditions lists every record': async (store) => {
    await seed(store, library);
    expect(ids(await list(store))).toEqual([1, 2, 3, 4, 5, 6, 7]);
  },
  'one value is equality, several values are IN': async (store) => {
    await seed(store, library);
    expect(ids(await list(store, undefined, [where('author', 'Dick')]))).toEqual([4, 5]);
    expect(ids(await list(store, undefined, [where('author', 'Dick', 'Herbert')]))).toEqual([1, 4, 5, 6]);
    expect(ids(await list(store, undefined, [where('name', 'Emma', 'Nobody', 'Valis')]))).toEqual([2, 5]);
    expect(ids(await list(store, undefined, [where('id', 7, 3, 99)]))).toEqual([3, 7]);
  },
  'conditions are ANDed': async (store) => {
    await seed(store, library);
    const found = await list(store, undefined, [where('author', 'Austen', 'Dick'), where('available', false)]);
    expect(ids(found)).toEqual([2, 5]);
    expect(ids(await list(store, undefined, [where('author', 'Austen'), where('author', 'Dick')]))).toEqual([]);
  },
  'compares integers, numbers and booleans by value': async (store) => {
    await seed(store, library);
    expect(ids(await list(store, undefined, [where('year', 1965, 1817)]))).toEqual([1, 3]);
    expect(ids(await list(store, undefined, [where('price', 9.99)]))).toEqual([1]);
    expect(ids(await list(store, undefined, [where('price', 7.25, -1.5)]))).toEqual([4, 5, 7]);
    expect(ids(await list(store, undefined, [where('price', 12)]))).toEqual([6]);
    expect(ids(await list(store, undefined, [where('available', true)]))).toEqual([1, 3, 6]);
    expect(ids(await list(store, undefined, [where('available', false)]))).toEqual([2, 5]);
  },
  'a null value matches records without a value': async (store) => {
    await seed(store, library);
    expect(ids(await list(store, undefined, [where('year', null)]))).toEqual([4, 7]);
    expect(ids(await list(store, undefined, [where('available', null, false)]))).toEqual([2, 4, 5, 7]);
  },
  'an empty list of values matches nothing': async (store) => {
    await seed(store, library);
    expect(await list(store, undefined, [where('author')])).toEqual([]);
  },
  'string equality is exact: case, accents and spaces count': async (store) => {
    const names = ['Dune', 'dune', 'DUNE', 'Dune ', ' Dune', 'Düne', 'Dune\t'];
    await seed(
      store,
      names.map((name) => ({ name, author: 'x' })),
    );
    expect(ids(await list(store, undefined, [where('name', 'Dune')]))).toEqual([1]);
    expect(ids(await list(store, undefined, [where('name', 'dune')]))).toEqual([2]);
    expect(ids(await list(store, undefined, [where('name', 'Dune ')]))).toEqual([4]);
    expect(ids(await list(store, undefined, [where('name', 'Düne')]))).toEqual([6]);
    expect(ids(await list(store, undefined, [where('name', 'Dune\t')]))).toEqual([7]);
    expect(ids(await list(store, undefined, [where('name', 'dUNE', 'Dune  ')]))).toEqual([]);
  },
});
