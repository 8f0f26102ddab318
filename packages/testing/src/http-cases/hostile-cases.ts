import { request } from 'node:http';
import { expect } from 'vitest';
import { enc, expectFieldErrors, expectProblem, type HttpClient, ids, parseLinks } from '../http-client.js';
import { group } from './group.js';

/** A filter value that, copied into `Link` as sent, would close the target and add a relation. */
const INJECTION = 'x>;rel="next",<https://evil.example/steal?a=';
const SEED = [
  { name: 'Book 1', author: INJECTION },
  { name: 'Book 2', author: INJECTION },
];

/**
 * `GET` with the request target sent as written: `fetch` would percent-encode `"`, `<` and `>`
 * in a query, which Node's server accepts raw.
 */
function rawGet(api: HttpClient, path: string): Promise<{ status: number; link: string }> {
  const { hostname, port, pathname } = new URL(api.baseUrl);
  return new Promise((resolve, reject) => {
    const sent = request({ host: hostname, port, path: `${pathname}${path}`, method: 'GET' }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, link: String(response.headers.link) }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** RFC 8288, strictly: `<target>; rel="relation"` entries joined by `, `, no delimiter inside a target. */
const LINK = /^<([^<>"\s,;]*)>; rel="(first|prev|next|last)"$/;

/** Requests shaped by an attacker: query characters a `Link` must not echo, huge 422s, long filter values. */
export const hostileCases = group('hostile requests', (api) => api.createAll(SEED), {
  'Link targets stay on the collection, whatever characters the query holds': async (api, seeded) => {
    const extra = '&a"b<c>=d;e,f';
    const reply = await rawGet(api, `/books?per_page=1&filter[author]=${INJECTION}${extra}`);
    expect(reply.status).toBe(200);
    const entries = reply.link.split(', ').map((entry) => LINK.exec(entry));
    expect(entries.every(Boolean), reply.link).toBe(true);
    expect(entries.map((entry) => entry?.[2])).toEqual(['first', 'next', 'last']);
    for (const entry of entries) {
      const url = new URL(api.resolve(entry?.[1] as string));
      expect(url.origin + url.pathname).toBe(api.url('/books'));
      expect(url.searchParams.get('filter[author]')).toBe(INJECTION);
      expect(url.searchParams.get('a"b<c>')).toBe('d;e,f');
    }
    // The links are the request's own, re-encoded: following `next` gives the second book.
    const next = await api.get(api.resolve(entries[1]?.[1] as string));
    expect(next.status, next.text).toBe(200);
    expect(ids(next.body.books)).toEqual([ids(seeded)[0]]);
  },

  'a body of 90,000 unknown fields gets a short 422: the first 20 of them and a count': async (api) => {
    const before = await api.count();
    const fields = Array.from({ length: 90_000 }, (_, i) => `k${i}`);
    const body = `{${fields.map((field) => `"${field}":1`).join(',')}}`;
    const reply = await api.send('POST', '/books', { body });
    // Every attribute at fault is listed (the model bounds them), unknown names up to 20.
    expectFieldErrors(reply, ['name', 'author', ...fields.slice(0, 20)]);
    expect(reply.body.detail).toMatch(/\b90000 unknown fields\b/);
    expect(reply.text.length).toBeLessThan(4096);
    expect(await api.count()).toBe(before);
  },

  'an unknown field with a huge name is named shortly in the 422': async (api) => {
    const name = 'k'.repeat(500_000);
    const reply = await api.send('POST', '/books', { body: `{"name":"N","author":"A","${name}":1}` });
    const problem = expectProblem(reply, 422);
    expect(Object.keys(problem.errors)).toHaveLength(1);
    expect(reply.text.length).toBeLessThan(4096);
  },

  'any value validation accepts can be filtered on, and its pages walked: 500 CJK characters, 500 emoji': async (
    api,
  ) => {
    for (const author of ['名'.repeat(500), '😀'.repeat(500), '😀\uFE0F'.repeat(250)]) {
      const older = await api.create({ name: 'Long', author });
      const newer = await api.create({ name: 'Long', author });
      const reply = await api.get(`/books?filter[author]=${enc(author)}&sort=-id&per_page=1&count=true`);
      expect(reply.status, reply.text.slice(0, 200)).toBe(200);
      expect(ids(reply.body.books)).toEqual([newer.id]);
      // Each link repeats the long query: the header keeps `next` and stays readable by fetch.
      const next = parseLinks(reply.headers.get('link')).next;
      expect(next).toBeDefined();
      const second = await api.get(api.resolve(next as string));
      expect(second.status, second.text.slice(0, 200)).toBe(200);
      expect(ids(second.body.books)).toEqual([older.id]);
    }
  },

  'a string over its maxLength in code points is 422, variation selectors included': async (api) => {
    const before = await api.count();
    // 500 emoji each followed by U+FE0F: 1000 code points, which every store counts.
    for (const name of ['😀\uFE0F'.repeat(500), 'a\uFE0F'.repeat(251)]) {
      expectFieldErrors(await api.json('POST', '/books', { name, author: 'A' }), ['name']);
    }
    expect(await api.count()).toBe(before);
  },
});
