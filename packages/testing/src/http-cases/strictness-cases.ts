import { expect } from 'vitest';
import { type BookJson, expectProblem, type HttpClient } from '../http-client.js';
import type { CaseGroup } from './group.js';
import { group } from './group.js';

const DUNE = { name: 'Dune', author: 'Frank Herbert' };

/** The base URL with its path in another case (`/api` → `/API`), or `undefined` when it has no letter. */
function otherCaseBase(api: HttpClient): string | undefined {
  const url = new URL(api.baseUrl);
  const swapped = url.pathname.toUpperCase() === url.pathname ? url.pathname.toLowerCase() : url.pathname.toUpperCase();
  return swapped === url.pathname ? undefined : `${url.origin}${swapped}`;
}

/** One spelling per URL: no trailing slash, case-sensitive paths, the base path included. */
const pathSpelling = group('one spelling per path', (api) => api.create(DUNE), {
  'a trailing slash is an unknown path (404), never the collection or an empty id': async (api, book) => {
    for (const method of ['GET', 'HEAD', 'POST', 'OPTIONS']) {
      const reply = await api.send(method, '/books/', method === 'POST' ? { body: JSON.stringify(DUNE) } : {});
      expect(reply.status, `${method} /books/`).toBe(404);
      expect(reply.headers.get('allow'), `${method} /books/`).toBeNull();
    }
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const body = method === 'PATCH' ? { body: JSON.stringify({ name: 'Changed' }) } : {};
      expect((await api.send(method, `/books/${book.id}/`, body)).status, `${method} /books/:id/`).toBe(404);
    }
    expectProblem(await api.get('/books/'), 404);
    expectProblem(await api.get(`/books/${book.id}/`), 404);
    expect(await api.list()).toEqual([book]);
  },

  'paths are case-sensitive, the base path included': async (api, book) => {
    for (const path of ['/BOOKS', '/Books', `/BOOKS/${book.id}`]) expectProblem(await api.get(path), 404);
    const other = otherCaseBase(api);
    if (other !== undefined) {
      for (const path of ['/books', `/books/${book.id}`]) expectProblem(await api.get(`${other}${path}`), 404);
      expectProblem(await api.json('POST', `${other}/books`, DUNE), 404);
    }
    expect(await api.list()).toEqual([book]);
  },
});

/** How much of a hostile value a problem may repeat. */
function expectBoundedEcho(problem: { detail: string }, sent: string): void {
  expect(problem.detail.length, problem.detail.slice(0, 200)).toBeLessThanOrEqual(300);
  expect(problem.detail).not.toContain(sent.slice(0, 101));
}

/** Problems repeat a bounded part of what the client sent, whatever its size. */
const boundedEchoes = group('bounded echoes in problems', (api) => api.create(DUNE), {
  'a huge id, path, filter or content type is echoed at most in part': async (api, book) => {
    const digits = '9'.repeat(10_000);
    expectBoundedEcho(expectProblem(await api.get(`/books/${digits}`), 404), digits);
    expectBoundedEcho(expectProblem(await api.json('PUT', `/books/${digits}`, DUNE), 405), digits);
    const segment = 'x'.repeat(5000);
    expectBoundedEcho(expectProblem(await api.get(`/${segment}`), 404), segment);
    expectBoundedEcho(expectProblem(await api.get(`/books/${book.id}/${segment}`), 404), segment);
    const number = '7'.repeat(3000);
    expectBoundedEcho(expectProblem(await api.get(`/books?filter[id]=${number}`), 400), number);
    const name = 'a'.repeat(1500);
    expectBoundedEcho(expectProblem(await api.get(`/books?filter[${name}]=1`), 400), name);
    expectBoundedEcho(expectProblem(await api.get(`/books?filter[${name}]=1&filter[${name}]=2`), 400), name);
    expectBoundedEcho(expectProblem(await api.get(`/books?sort=${name}`), 400), name);
    const type = `text/${'y'.repeat(5000)}`;
    const post = await api.send('POST', '/books', { body: JSON.stringify(DUNE), contentType: type });
    expectBoundedEcho(expectProblem(post, 415), type);
    expect(await api.list()).toEqual([book]);
  },
});

async function etagOf(api: HttpClient, book: BookJson): Promise<string> {
  const reply = await api.get(`/books/${book.id}`);
  expect(reply.status).toBe(200);
  return reply.headers.get('etag') as string;
}

/** `If-Match` is evaluated on reads too (RFC 9110 §13.1.1): 412 when no listed tag is current. */
const ifMatchOnReads = group('If-Match on show, index and create', (api) => api.create(DUNE), {
  'If-Match on show: a stale or weak tag is 412, the current tag or * answers the record': async (api, book) => {
    const tag = await etagOf(api, book);
    for (const method of ['GET', 'HEAD']) {
      for (const stale of ['"stale"', `W/${tag}`]) {
        const reply = await api.send(method, `/books/${book.id}`, { headers: { 'if-match': stale } });
        expect(reply.status, `${method} If-Match: ${stale}`).toBe(412);
        expect(reply.headers.get('etag')).toBeNull();
      }
      for (const current of [tag, '*', `"other", ${tag}`]) {
        const reply = await api.send(method, `/books/${book.id}`, { headers: { 'if-match': current } });
        expect(reply.status, `${method} If-Match: ${current}`).toBe(200);
        expect(reply.headers.get('etag')).toBe(tag);
      }
    }
    expectProblem(await api.send('GET', `/books/${book.id}`, { headers: { 'if-match': '"stale"' } }), 412);
    // A record that does not exist is 404 whatever the precondition.
    expectProblem(await api.send('GET', `/books/${book.id + 1_000_000}`, { headers: { 'if-match': tag } }), 404);
  },

  'If-Match on the collection: it has no entity tag, so only * passes': async (api, book) => {
    expectProblem(await api.send('GET', '/books', { headers: { 'if-match': '"any"' } }), 412);
    expect((await api.send('GET', '/books', { headers: { 'if-match': '*' } })).status).toBe(200);
    // A malformed query is still a 400: the precondition is evaluated on what would succeed.
    expectProblem(await api.send('GET', '/books?sort=nope', { headers: { 'if-match': '"any"' } }), 400);
    const refused = await api.send('POST', '/books', { body: JSON.stringify(DUNE), headers: { 'if-match': '"any"' } });
    expectProblem(refused, 412);
    expect(await api.list()).toEqual([book]);
    const created = await api.send('POST', '/books', { body: JSON.stringify(DUNE), headers: { 'if-match': '*' } });
    expect(created.status).toBe(200);
  },
});

/** Strict spelling of paths, bounded echoes, If-Match on reads: what a hostile pass found (issue 13). */
export const strictnessCases: readonly CaseGroup[] = [pathSpelling, boundedEchoes, ifMatchOnReads];
