import { expect } from 'vitest';
import { type BookJson, enc, type HttpClient, ids, parseLinks, sortBooks } from '../http-client.js';
import { group } from './group.js';

const AUTHORS = ['Alpha', 'beta', 'Gamma'];
const SEED = Array.from({ length: 30 }, (_, i) => ({
  name: `Book ${String(30 - i).padStart(2, '0')}`,
  author: AUTHORS[i % 3] as string,
}));

/** The `page` of every relation of a reply's `Link` header: `{ first: 1, next: 2, last: 5 }`. */
function pagesOf(links: Record<string, string>, api: HttpClient): Record<string, number> {
  const pages: Record<string, number> = {};
  for (const [rel, target] of Object.entries(links)) {
    pages[rel] = Number(new URL(api.resolve(target)).searchParams.get('page'));
  }
  return pages;
}

/** Follows `next` links from a first request, answering every record seen. */
async function walk(api: HttpClient, query: string): Promise<BookJson[]> {
  const seen: BookJson[] = [];
  let target: string | undefined = api.url(`/books?${query}`);
  for (let pages = 0; target !== undefined; pages++) {
    expect(pages, 'the walk ends').toBeLessThan(100);
    const reply = await api.get(target);
    expect(reply.status, reply.text).toBe(200);
    seen.push(...reply.body.books);
    const next = parseLinks(reply.headers.get('link')).next;
    target = next === undefined ? undefined : api.resolve(next);
  }
  return seen;
}

/** Pages, page sizes, `X-Total-Count` and `Link`, on 30 stored books. */
export const paginationCases = group('index: pagination', (api) => api.createAll(SEED), {
  'per_page defaults to 25 and pages are numbered from 1': async (api, all) => {
    const newest = ids(all).reverse();
    expect(ids(await api.list())).toEqual(newest.slice(0, 25));
    expect(ids(await api.list('page=1'))).toEqual(newest.slice(0, 25));
    expect(ids(await api.list('page=2'))).toEqual(newest.slice(25));
  },

  'page and per_page select a slice of the ordered list': async (api, all) => {
    const newest = ids(all).reverse();
    expect(ids(await api.list('per_page=7&page=2'))).toEqual(newest.slice(7, 14));
    expect(ids(await api.list('page=5&per_page=7'))).toEqual(newest.slice(28));
    expect(ids(await api.list('per_page=1&page=30'))).toEqual(newest.slice(29));
    const byName = ids(sortBooks(all, 'name'));
    expect(ids(await api.list('sort=name&per_page=4&page=3'))).toEqual(byName.slice(8, 12));
  },

  'per_page may be as large as 100': async (api, all) => {
    expect(await api.list('per_page=100')).toHaveLength(all.length);
  },

  'a page past the end is 200 with an empty list': async (api, all) => {
    for (const query of ['page=4&per_page=10', 'page=2&per_page=100', 'page=1000', 'page=9007199254740991']) {
      const reply = await api.get(`/books?${query}`);
      expect(reply.status, query).toBe(200);
      expect(reply.body, query).toEqual({ books: [] });
      expect(reply.headers.get('x-total-count'), query).toBe(String(all.length));
    }
    const filtered = await api.get('/books?filter[author]=Nobody');
    expect(filtered.body).toEqual({ books: [] });
    expect(filtered.headers.get('x-total-count')).toBe('0');
  },

  'X-Total-Count counts every record matching the filter, not the page': async (api, all) => {
    expect(await api.count()).toBe(all.length);
    expect((await api.get('/books?per_page=2&page=3')).headers.get('x-total-count')).toBe(String(all.length));
    expect(await api.count('filter[author]=Alpha')).toBe(10);
    expect(await api.count('filter[author][]=Alpha&filter[author][]=beta')).toBe(20);
    expect(await api.count(`filter[author]=Alpha&filter[name]=${enc('Book 30')}`)).toBe(1);
    expect(await api.count('filter[author]=alpha')).toBe(0);
  },

  'Link has first, prev, next and last, only those that exist': async (api) => {
    const links = async (query: string) =>
      pagesOf(parseLinks((await api.get(`/books?${query}`)).headers.get('link')), api);
    expect(await links('per_page=7')).toEqual({ first: 1, next: 2, last: 5 });
    expect(await links('per_page=7&page=1')).toEqual({ first: 1, next: 2, last: 5 });
    expect(await links('per_page=7&page=3')).toEqual({ first: 1, prev: 2, next: 4, last: 5 });
    expect(await links('per_page=7&page=5')).toEqual({ first: 1, prev: 4, last: 5 });
    expect(await links('per_page=10&page=3')).toEqual({ first: 1, prev: 2, last: 3 });
    expect(await links('per_page=100')).toEqual({ first: 1, last: 1 });
    expect(await links('filter[author]=Alpha&per_page=5&page=2')).toEqual({ first: 1, prev: 1, last: 2 });
  },

  "Link URLs keep the request's other parameters": async (api, all) => {
    const request = 'filter[author][]=Alpha&filter[author][]=beta&sort=-name&per_page=3&page=2';
    const reply = await api.get(`/books?${request}`);
    const links = parseLinks(reply.headers.get('link'));
    expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next', 'prev']);
    const asked = new URLSearchParams(request);
    for (const [rel, target] of Object.entries(links)) {
      const url = new URL(api.resolve(target));
      expect(url.origin + url.pathname, rel).toBe(api.url('/books'));
      for (const key of ['filter[author][]', 'sort', 'per_page']) {
        expect(url.searchParams.getAll(key), `${rel} keeps ${key}`).toEqual(asked.getAll(key));
      }
      expect(url.searchParams.getAll('page'), rel).toHaveLength(1);
    }
    const matching = all.filter((book) => book.author === 'Alpha' || book.author === 'beta');
    const next = await api.get(api.resolve(links.next as string));
    expect(ids(next.body.books)).toEqual(ids(sortBooks(matching, '-name')).slice(6, 9));
  },

  'every Link URL can be followed, however the request was encoded': async (api) => {
    // `pag%65` is `page`, `%73ort` is `sort`: a link must not carry the old page alongside the new one.
    for (const request of ['per_page=4&pag%65=2', 'filter%5Bauthor%5D=Alpha&%73ort=-name&per%5Fpage=3&page=2']) {
      const links = parseLinks((await api.get(`/books?${request}`)).headers.get('link'));
      expect(Object.keys(links).sort(), request).toEqual(['first', 'last', 'next', 'prev']);
      for (const [rel, target] of Object.entries(links)) {
        const reply = await api.get(api.resolve(target));
        expect(reply.status, `${request} → ${rel}: ${reply.text}`).toBe(200);
        expect(new URL(api.resolve(target)).searchParams.getAll('page'), rel).toHaveLength(1);
      }
    }
  },

  'count=estimated on a few records answers as count=true does: X-Total-Count and the last link': async (api) => {
    for (const query of [
      'per_page=7&page=2',
      'filter[author]=Alpha&per_page=5',
      'sort=name&per_page=10&page=3',
      'page=9',
    ]) {
      const estimated = await api.get(`/books?${query}&count=estimated`);
      const exact = await api.get(`/books?${query}&count=true`);
      expect(estimated.status, estimated.text).toBe(200);
      expect(estimated.body, query).toEqual(exact.body);
      expect(estimated.headers.get('x-total-count'), query).toBe(exact.headers.get('x-total-count'));
      expect(estimated.headers.get('x-total-count-estimate'), query).toBeNull();
      const pages = pagesOf(parseLinks(estimated.headers.get('link')), api);
      expect(pages, query).toEqual(pagesOf(parseLinks(exact.headers.get('link')), api));
      expect(Object.keys(pages), query).toContain('last');
    }
    const links = parseLinks((await api.get('/books?count=estimated&per_page=7')).headers.get('link'));
    expect(new URL(api.resolve(links.next as string)).searchParams.get('count')).toBe('estimated');
  },

  'walking the pages of a sort on a non-unique field neither repeats nor skips a record': async (api, all) => {
    for (const sort of ['author', '-author']) {
      const seen = await walk(api, `sort=${sort}&per_page=4`);
      expect(new Set(ids(seen)).size, sort).toBe(all.length);
      expect(ids(seen), sort).toEqual(ids(sortBooks(all, sort)));
    }
    const seen = await walk(api, 'filter[author][]=Alpha&filter[author][]=Gamma&sort=-author&per_page=3');
    expect(ids(seen)).toEqual(
      ids(
        sortBooks(
          all.filter((book) => book.author !== 'beta'),
          '-author',
        ),
      ),
    );
  },
});
