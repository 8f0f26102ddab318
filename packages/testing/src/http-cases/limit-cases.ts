import { expect } from 'vitest';
import { expectProblem, parseLinks } from '../http-client.js';
import { group } from './group.js';

const SEED = Array.from({ length: 5 }, (_, i) => ({ name: `Book ${i}`, author: 'Anon' }));

/** Request limits, the optional count, and the safe headers of every response. */
export const limitCases = group('limits, count and safe headers', (api) => api.createAll(SEED), {
  'count=false leaves out X-Total-Count and the last link but keeps next': async (api) => {
    const reply = await api.get('/books?count=false&per_page=2');
    expect(reply.status).toBe(200);
    expect(reply.body.books).toHaveLength(2);
    expect(reply.headers.get('x-total-count')).toBeNull();
    const links = parseLinks(reply.headers.get('link'));
    expect(Object.keys(links).sort()).toEqual(['first', 'next']);
    const lastPage = await api.get('/books?count=false&per_page=2&page=3');
    expect(lastPage.body.books).toHaveLength(1);
    expect(Object.keys(parseLinks(lastPage.headers.get('link'))).sort()).toEqual(['first', 'prev']);
    for (const value of ['maybe', 'estimate', 'ESTIMATED', ''])
      expectProblem(await api.get(`/books?count=${value}`), 400);
  },

  'a query string over 4096 characters plus 12 per character of the longest filterable string is 414': async (api) => {
    // `name` and `author` have at most 500 characters: the limit is 4096 + 12 × 500 = 10096.
    const query = (length: number) => `filter[name]=${'x'.repeat(length - 'filter[name]='.length)}`;
    expect((await api.get(`/books?${query(10_096)}`)).status).toBe(200);
    expectProblem(await api.get(`/books?${query(10_097)}`), 414);
  },

  'more than 100 filter values or 8 sort keys is 400': async (api) => {
    const values = Array.from({ length: 101 }, (_, i) => `filter[name][]=${i}`).join('&');
    expectProblem(await api.get(`/books?${values}`), 400);
    expect((await api.get(`/books?${values.split('&').slice(0, 100).join('&')}`)).status).toBe(200);
    expectProblem(await api.get(`/books?sort=${Array(9).fill('name').join(',')}`), 400);
  },

  'a JSON body nested deeper than 32 levels is 400 and stores nothing': async (api) => {
    const deep = `{"name":"x","author":${'['.repeat(40)}${']'.repeat(40)}}`;
    expectProblem(await api.send('POST', '/books', { body: deep }), 400);
    const bomb = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expectProblem(await api.send('POST', '/books', { body: bomb }), 400);
    expect(await api.count()).toBe(SEED.length);
  },

  'every response says nosniff and does not advertise the framework': async (api) => {
    for (const reply of [await api.get('/books'), await api.get('/books/0'), await api.send('PUT', '/books')]) {
      expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
      expect(reply.headers.get('x-powered-by')).toBeNull();
    }
  },
});
