import { describe, expect, it } from 'vitest';
import { indexQueryString, pageOf, parseLinks } from '../src/query-string.js';
import { statsQueryString } from '../src/stats.js';

describe('indexQueryString', () => {
  it('writes filters, sort and paging as the server reads them', () => {
    expect(indexQueryString({ filter: { author: ['A', 'B'] }, sort: ['-name'], page: 2, perPage: 20 })).toBe(
      'filter[author][]=A&filter[author][]=B&sort=-name&page=2&per_page=20',
    );
    expect(indexQueryString({ filter: { id: 7, done: false }, sort: '-id' })).toBe(
      'filter[id]=7&filter[done]=false&sort=-id',
    );
    expect(indexQueryString({ sort: ['name', '-id'] })).toBe('sort=name,-id');
    expect(indexQueryString()).toBe('');
    expect(indexQueryString({ perPage: 5, count: false })).toBe('per_page=5&count=false');
    expect(indexQueryString({ count: true })).toBe('count=true');
  });

  it('writes operators, filters through a relation, fields and a cursor', () => {
    const filter = { year: { gte: 2000, lt: 2010 }, title: { prefix: 'The' }, country: { null: true } };
    expect(
      indexQueryString({ filter: { ...filter, 'author.country': 'UK' }, fields: ['title', 'year'], after: 'a.b' }),
    ).toBe(
      'filter[year][gte]=2000&filter[year][lt]=2010&filter[title][prefix]=The&filter[country][null]=true&filter[author.country]=UK&fields=title,year&after=a.b',
    );
    expect(indexQueryString({ filter: { year: { gte: undefined } }, fields: [] })).toBe('');
    expect(() => indexQueryString({ filter: { year: { gte: null } } })).toThrow(
      /filter.year.gte: null cannot be filtered on/,
    );
  });

  it('writes the search as q, percent-encoded', () => {
    expect(indexQueryString({ q: 'login crash', filter: { status: 'open' }, perPage: 10 })).toBe(
      'filter[status]=open&per_page=10&q=login%20crash',
    );
    expect(indexQueryString({ q: 'Straße & café' })).toBe('q=Stra%C3%9Fe%20%26%20caf%C3%A9');
  });

  it('writes the search of statistics as q too, with their filters, archived and aggregates', () => {
    expect(statsQueryString({ filter: { status: 'open' }, q: 'login crash', archived: true, group: ['status'] })).toBe(
      'filter[status]=open&q=login%20crash&archived=true&group=status',
    );
    expect(statsQueryString({ q: 'café', sum: ['estimate'] })).toBe('q=caf%C3%A9&sum=estimate');
  });

  it('percent-encodes values, quotes and all', () => {
    expect(indexQueryString({ filter: { name: 'a&b=c "d" +é,' } })).toBe(
      'filter[name]=a%26b%3Dc%20%22d%22%20%2B%C3%A9%2C',
    );
  });

  it('leaves out undefined filters and refuses what it cannot express', () => {
    expect(indexQueryString({ filter: { name: undefined } })).toBe('');
    expect(() => indexQueryString({ filter: { author: [] } })).toThrow(RangeError);
    expect(() => indexQueryString({ filter: { year: null } })).toThrow(/cannot be filtered on/);
    expect(() => indexQueryString({ filter: { year: Number.NaN } })).toThrow(TypeError);
  });
});

describe('parseLinks and pageOf', () => {
  const header =
    '</api/books?sort=name&page=1>; rel="first", </api/books?sort=name&page=2>; rel="prev", </api/books?sort=name&page=4>; rel="next", </api/books?sort=name&page=9>; rel="last"';

  it('resolves every relation against the request URL', () => {
    const links = parseLinks(header, 'http://localhost:3000/api/books?page=3');
    expect(links).toEqual({
      first: 'http://localhost:3000/api/books?sort=name&page=1',
      prev: 'http://localhost:3000/api/books?sort=name&page=2',
      next: 'http://localhost:3000/api/books?sort=name&page=4',
      last: 'http://localhost:3000/api/books?sort=name&page=9',
    });
    expect([pageOf(links.prev), pageOf(links.next), pageOf(links.last)]).toEqual([2, 4, 9]);
  });

  it('keeps links as they are when the base is relative, and ignores other relations', () => {
    expect(parseLinks('</api/books?page=2>; rel="next", </about>; rel="help"', '/api/books')).toEqual({
      next: '/api/books?page=2',
    });
    expect(parseLinks(null, '/api/books')).toEqual({});
    expect(pageOf('/api/books?page=2')).toBe(2);
    expect(pageOf('/api/books')).toBeUndefined();
  });

  it('leaves out a target on another origin than the request', () => {
    const evil =
      '</api/books?page=1>; rel="first", <https://evil.example/steal?page=2>; rel="next", <//evil.example/x>; rel="last", <http://localhost:3001/api/books?page=0>; rel="prev"';
    expect(parseLinks(evil, 'http://localhost:3000/api/books')).toEqual({
      first: 'http://localhost:3000/api/books?page=1',
    });
    expect(parseLinks(evil, '/api/books')).toEqual({ first: '/api/books?page=1' });
    expect(parseLinks('<javascript:alert(1)>; rel="next"', 'http://localhost:3000/api/books')).toEqual({});
  });
});
