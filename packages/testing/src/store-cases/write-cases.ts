import { expect } from 'vitest';
import { ids, library, list, seed, storeGroup, where } from './fixtures.js';

/** update: partial, atomic, scoped. */
export const updateCases = storeGroup('update', {
  'writes only the given fields and answers the whole record': async (store) => {
    const [dune] = await seed(store, library);
    const updated = await store.update(1, { name: 'Dune Messiah', price: 10.5 }, []);
    const expected = { ...dune, name: 'Dune Messiah', price: 10.5 };
    expect(updated).toStrictEqual(expected);
    expect(await store.find(1, [])).toStrictEqual(expected);
    expect(await store.find(2, [])).toStrictEqual({ id: 2, ...library[1] });
  },
  'sets a nullable field to null and back': async (store) => {
    await seed(store, library);
    expect(await store.update(1, { year: null, available: null }, [])).toMatchObject({ year: null, available: null });
    expect(await store.update(1, { year: 1966, available: false }, [])).toMatchObject({ year: 1966, available: false });
    expect(await store.find(1, [])).toMatchObject({ year: 1966, available: false });
  },
  'answers the record unchanged for an empty change': async (store) => {
    const [dune] = await seed(store, library);
    expect(await store.update(1, {}, [])).toStrictEqual(dune);
  },
  'answers undefined for an id that does not exist': async (store) => {
    await seed(store, library.slice(0, 2));
    expect(await store.update(3, { name: 'Ghost' }, [])).toBeUndefined();
    expect(ids(await list(store))).toEqual([1, 2]);
  },
  'leaves records outside the where scope alone': async (store) => {
    await seed(store, library);
    expect(await store.update(1, { name: 'Other' }, [where('author', 'Austen')])).toBeUndefined();
    expect((await store.find(1, []))?.name).toBe('Dune');
    const updated = await store.update(1, { name: 'Dune II' }, [where('author', 'Austen', 'Herbert')]);
    expect(updated).toMatchObject({ id: 1, name: 'Dune II', author: 'Herbert' });
  },
  'answers the record after a change of the field the scope is on': async (store) => {
    await seed(store, library);
    const updated = await store.update(1, { author: 'Frank Herbert' }, [where('author', 'Herbert')]);
    expect(updated).toMatchObject({ id: 1, author: 'Frank Herbert' });
  },
  'concurrent updates of different fields all take effect': async (store) => {
    await seed(store, library);
    await Promise.all([
      store.update(1, { name: 'N' }, []),
      store.update(1, { author: 'A' }, []),
      store.update(1, { year: 2000 }, []),
      store.update(1, { price: 1.25 }, []),
      store.update(1, { available: false }, []),
    ]);
    const expected = { id: 1, name: 'N', author: 'A', year: 2000, price: 1.25, available: false };
    expect(await store.find(1, [])).toStrictEqual(expected);
  },
});

/** destroy: once, scoped. */
export const destroyCases = storeGroup('destroy', {
  'answers true once, then false': async (store) => {
    await seed(store, library);
    expect(await store.destroy(2, [])).toBe(true);
    expect(await store.destroy(2, [])).toBe(false);
    expect(await store.find(2, [])).toBeUndefined();
    expect(ids(await list(store))).toEqual([1, 3, 4, 5, 6, 7]);
  },
  'answers false for an id that does not exist': async (store) => {
    await seed(store, library.slice(0, 2));
    expect(await store.destroy(3, [])).toBe(false);
    expect(ids(await list(store))).toEqual([1, 2]);
  },
  'leaves records outside the where scope alone': async (store) => {
    await seed(store, library);
    expect(await store.destroy(1, [where('author', 'Austen')])).toBe(false);
    expect(await store.find(1, [])).toBeDefined();
    expect(await store.destroy(1, [where('author', 'Herbert'), where('available', true)])).toBe(true);
    expect(await store.find(1, [])).toBeUndefined();
  },
});
