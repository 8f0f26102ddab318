import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINK_BUDGET, paginationHeaders } from '../src/http/links.js';

/** The targets of a `Link` header by relation, read as strictly as RFC 8288 writes them. */
function targets(header: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of header.split(', ')) {
    const match = /^<([^<>"\s,;]*)>; rel="(first|prev|next|last)"$/.exec(entry);
    if (!match) throw new Error(`not a plain link: ${entry}`);
    found[match[2] as string] = match[1] as string;
  }
  return found;
}

const link = (rawQuery: string, basePath = '/api', path = '/books') =>
  paginationHeaders({ basePath, path, rawQuery }, 1, 1, 0).Link as string;

describe('paginationHeaders', () => {
  it('re-encodes what the client sent raw, so that no target closes early or adds a relation', () => {
    const header = link('per_page=1&filter[author]=x>;rel="next",<https://evil.example/steal?a=');
    expect(header).not.toContain('evil.example/');
    const found = targets(header);
    expect(Object.keys(found)).toEqual(['first', 'last']);
    const url = new URL(found.first as string, 'http://host');
    expect(url.pathname).toBe('/api/books');
    expect(url.searchParams.get('filter[author]')).toBe('x>;rel="next",<https://evil.example/steal?a=');
  });

  it('keeps every parameter meaning the same: encoded, raw, `+` as a space, brackets readable', () => {
    const found = targets(link('filter%5Bauthor%5D%5B%5D=A+B&filter[author][]=%C3%A9&sort=-name,id&x&page=3'));
    expect(found.first).toBe('/api/books?filter[author][]=A%20B&filter[author][]=%C3%A9&sort=-name%2Cid&x&page=1');
  });

  it('encodes a path and a base path a URI may not hold raw, and survives lone surrogates', () => {
    expect(targets(link('', '/t>;rel="x"', '/books')).first).toBe('/t%3E%3Brel=%22x%22/books?page=1');
    expect(targets(link('', '/%zz/a%2Fb', '/books')).first).toBe('/%25zz/a%2Fb/books?page=1');
    expect(targets(link('q=\ud800', '/api')).first).toBe('/api/books?q=%EF%BF%BD&page=1');
  });

  it('keeps a long Link within its budget, always with the most useful relation', () => {
    const query = `filter[author]=${encodeURIComponent('😀'.repeat(500))}`;
    const headers = (page: number, total: number) =>
      paginationHeaders({ basePath: '/api', path: '/books', rawQuery: query }, page, 1, total).Link as string;
    expect(Object.keys(targets(headers(2, 3)))).toEqual(['prev', 'next']);
    expect(Object.keys(targets(headers(1, 3)))).toEqual(['first', 'next']);
    expect(Object.keys(targets(headers(3, 3)))).toEqual(['first', 'prev']);
    expect(Object.keys(targets(headers(1, 0)))).toEqual(['first', 'last']);
    for (const header of [headers(2, 3), headers(1, 3)]) expect(header.length).toBeLessThanOrEqual(LINK_BUDGET);
    // Alone over the budget, the most useful relation is still sent.
    const huge = paginationHeaders({ basePath: '/api', path: '/books', rawQuery: `q=${'x'.repeat(20_000)}` }, 2, 1, 3);
    expect(Object.keys(targets(huge.Link as string))).toEqual(['next']);
  });

  it('keeps every other parameter as the client meant it and replaces page, in every relation (property)', () => {
    const pair = fc.tuple(
      fc.oneof(fc.constant('page'), fc.string({ unit: 'grapheme' })),
      fc.string({ unit: 'grapheme' }),
    );
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 6 }), fc.boolean(), (pairs, plus) => {
        // Spaces sent as `+` or as `%20`: the query parser reads both as a space.
        const encode = (text: string) => {
          const encoded = encodeURIComponent(text);
          return plus ? encoded.replace(/%20/g, '+') : encoded;
        };
        const rawQuery = pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&');
        const found = targets(
          paginationHeaders({ basePath: '/api', path: '/books', rawQuery }, 2, 1, 3).Link as string,
        );
        const kept = pairs.filter(([key]) => key !== 'page');
        for (const [rel, page] of Object.entries({ first: 1, prev: 1, next: 3, last: 3 })) {
          const url = new URL(found[rel] as string, 'http://host');
          expect(url.pathname).toBe('/api/books');
          expect([...url.searchParams]).toEqual([...kept, ['page', String(page)]]);
        }
      }),
    );
  });
});
