import { expect } from 'vitest';
import { type BookJson, byCodePoint, enc, ids, sortBooks } from '../http-client.js';
import { group } from './group.js';

/** Strings whose code point order differs from UTF-16, case-insensitive and accent-folding orders. */
export const CODE_POINT_NAMES = ['B', 'a', 'é', '\uFFFD', '😀', 'A', 'b', 'Z', 'z', 'e', 'ab', '~', 'Ω', 'a b', 'É'];

const SEED = [
  { name: 'Dune', author: 'Frank Herbert' },
  { name: 'Dune Messiah', author: 'Frank Herbert' },
  { name: 'Children of Dune', author: 'Frank Herbert' },
  { name: 'Hyperion', author: 'Dan Simmons' },
  { name: 'A Wizard of Earthsea', author: 'Ursula K. Le Guin' },
  { name: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin' },
  { name: '"Quoted"', author: "O'Brien" },
  { name: 'dune', author: 'frank herbert' },
  { name: 'Dune ', author: 'Frank Herbert' },
  { name: 'Dune', author: 'Brian Herbert' },
  { name: 'Accents', author: 'e' },
  { name: 'Accents', author: 'é' },
  ...CODE_POINT_NAMES.map((name) => ({ name, author: 'Code Point' })),
];

/** Books matching a predicate, in the default order (newest first). */
function where(all: readonly BookJson[], keep: (book: BookJson) => boolean): number[] {
  return ids(all.filter(keep)).sort((a, b) => b - a);
}

/** Listing, filtering and sorting, on one stored data set. */
export const indexCases = group('index: filter and sort', (api) => api.createAll(SEED), {
  'index answers 200 with every record under "books"': async (api, all) => {
    const reply = await api.get('/books?per_page=100');
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json\s*(;|$)/);
    expect(Object.keys(reply.body)).toEqual(['books']);
    expect([...reply.body.books].sort((a: BookJson, b: BookJson) => a.id - b.id)).toEqual(all);
  },

  'index lists by id descending by default': async (api, all) => {
    expect(ids(await api.list('per_page=100'))).toEqual(ids(all).reverse());
  },

  'filter[attr]=v keeps the records whose attr equals v': async (api, all) => {
    expect(ids(await api.list(`filter[author]=${enc('Frank Herbert')}`))).toEqual(
      where(all, (book) => book.author === 'Frank Herbert'),
    );
    expect(ids(await api.list(`filter[name]=Hyperion`))).toEqual(where(all, (book) => book.name === 'Hyperion'));
    expect(await api.list('filter[name]=Nothing')).toEqual([]);
  },

  'filter[attr][]=a&filter[attr][]=b keeps the records whose attr is any of the values': async (api, all) => {
    const authors = ['Dan Simmons', "O'Brien", 'Nobody'];
    const query = authors.map((author) => `filter[author][]=${enc(author)}`).join('&');
    expect(ids(await api.list(query))).toEqual(where(all, (book) => authors.includes(book.author)));
    expect(ids(await api.list(`filter[author][]=${enc('Dan Simmons')}`))).toEqual(
      where(all, (book) => book.author === 'Dan Simmons'),
    );
  },

  'several filters combine with AND, the values of one filter with OR': async (api, all) => {
    expect(ids(await api.list(`filter[name]=Dune&filter[author]=${enc('Brian Herbert')}`))).toEqual(
      where(all, (book) => book.name === 'Dune' && book.author === 'Brian Herbert'),
    );
    const names = ['Dune', 'Hyperion', 'Dune Messiah'];
    const query = `${names.map((name) => `filter[name][]=${enc(name)}`).join('&')}&filter[author]=${enc('Frank Herbert')}`;
    expect(ids(await api.list(query))).toEqual(
      where(all, (book) => names.includes(book.name) && book.author === 'Frank Herbert'),
    );
    expect(await api.list(`filter[name]=Hyperion&filter[author]=${enc('Frank Herbert')}`)).toEqual([]);
  },

  'filter[id]=n compares with the integer n': async (api, all) => {
    const a = all[3] as BookJson;
    const b = all[6] as BookJson;
    expect(await api.list(`filter[id]=${a.id}`)).toEqual([a]);
    expect(ids(await api.list(`filter[id][]=${a.id}&filter[id][]=${b.id}`))).toEqual([b.id, a.id]);
    expect(await api.list(`filter[id]=${a.id}&filter[name]=${enc(a.name)}`)).toEqual([a]);
    expect(await api.list(`filter[id]=${a.id}&filter[name]=${enc(b.name)}`)).toEqual([]);
  },

  'filter values are taken literally, quote characters included': async (api, all) => {
    const quoted = all.filter((book) => book.name === '"Quoted"');
    expect(await api.list(`filter[name]=${enc('"Quoted"')}`)).toEqual(quoted);
    expect(await api.list(`filter[author]=${enc("O'Brien")}`)).toEqual(quoted);
    for (const value of ['Quoted', "'Quoted'", '"Quoted', "'Dune'", '"Dune"', "O''Brien", "O\\'Brien", '%', '_']) {
      expect(await api.list(`filter[name]=${enc(value)}`), value).toEqual([]);
      expect(await api.list(`filter[author]=${enc(value)}`), value).toEqual([]);
    }
  },

  'string equality is exact: case, accents and trailing spaces count': async (api, all) => {
    for (const value of ['Dune', 'dune', 'Dune ', 'DUNE', ' Dune']) {
      expect(ids(await api.list(`filter[name]=${enc(value)}`)), JSON.stringify(value)).toEqual(
        where(all, (book) => book.name === value),
      );
    }
    for (const value of ['e', 'é', 'E', 'frank herbert', 'Frank Herbert', 'Frank Herbert ']) {
      expect(ids(await api.list(`filter[author]=${enc(value)}`)), JSON.stringify(value)).toEqual(
        where(all, (book) => book.author === value),
      );
    }
  },

  'filter keys and values may be percent-encoded, "+" meaning a space': async (api, all) => {
    const expected = where(all, (book) => book.author === 'Frank Herbert');
    expect(ids(await api.list('filter%5Bauthor%5D=Frank+Herbert'))).toEqual(expected);
    expect(ids(await api.list(new URLSearchParams({ 'filter[author][]': 'Frank Herbert' }).toString()))).toEqual(
      expected,
    );
    expect(ids(await api.list(`filter[name]=${enc('A Wizard of Earthsea')}`))).toEqual(
      where(all, (book) => book.name === 'A Wizard of Earthsea'),
    );
  },

  'sort=a,-b sorts by each listed attribute in turn, "-" meaning descending': async (api, all) => {
    for (const sort of ['author,-name', '-author,name', 'name', '-name', 'id', '-id', 'name,-id', '-author,-id']) {
      expect(ids(await api.list(`sort=${sort}&per_page=100`)), sort).toEqual(ids(sortBooks(all, sort)));
    }
  },

  'sort and filter combine': async (api, all) => {
    const herberts = all.filter((book) => book.author.endsWith('Herbert'));
    const query = ['Frank Herbert', 'Brian Herbert'].map((author) => `filter[author][]=${enc(author)}`).join('&');
    expect(ids(await api.list(`${query}&sort=-name`))).toEqual(ids(sortBooks(herberts, '-name')));
  },

  'id is appended as the final tie-breaker': async (api, all) => {
    // Many books share an author: within one author they must come by ascending id.
    expect(ids(await api.list('sort=author&per_page=100'))).toEqual(ids(sortBooks(all, 'author')));
    expect(ids(await api.list('sort=-author&per_page=100'))).toEqual(ids(sortBooks(all, '-author')));
  },

  'strings sort by Unicode code point, not by locale or UTF-16 unit': async (api) => {
    const expected = [...CODE_POINT_NAMES].sort(byCodePoint);
    const query = `filter[author]=${enc('Code Point')}&per_page=100`;
    expect((await api.list(`${query}&sort=name`)).map((book) => book.name)).toEqual(expected);
    expect((await api.list(`${query}&sort=-name`)).map((book) => book.name)).toEqual([...expected].reverse());
  },
});
