import { expect } from 'vitest';
import { expectProblem, type Reply } from '../http-client.js';
import { group } from './group.js';

/** The methods of an `Allow` header, upper-cased. */
function allowOf(reply: Reply): string[] {
  return (reply.headers.get('allow') ?? '').split(',').map((method) => method.trim().toUpperCase());
}

/** Methods the resource does not serve, and paths it does not have. */
export const routingCases = group('routing', (api) => api.create({ name: 'Dune', author: 'Frank Herbert' }), {
  'a method not served on a record path is 405 with Allow': async (api, book) => {
    for (const id of [book.id, book.id + 1_000_000]) {
      const reply = await api.json('PUT', `/books/${id}`, { name: 'Emma', author: 'Jane Austen' });
      expectProblem(reply, 405);
      expect(allowOf(reply)).toEqual(expect.arrayContaining(['GET', 'PATCH', 'DELETE']));
      expect(allowOf(reply)).not.toContain('PUT');
      expect(allowOf(reply)).not.toContain('POST');
      expectProblem(await api.json('POST', `/books/${id}`, { name: 'Emma', author: 'Jane Austen' }), 405);
    }
    expect(await api.find(book.id)).toEqual(book);
  },

  'a method not served on the collection path is 405 with Allow': async (api, book) => {
    for (const method of ['DELETE', 'PATCH', 'PUT']) {
      const reply = await api.send(method, '/books');
      expectProblem(reply, 405);
      expect(allowOf(reply)).toEqual(expect.arrayContaining(['GET', 'POST']));
      expect(allowOf(reply)).not.toContain(method);
    }
    expect(await api.list()).toEqual([book]);
  },

  'HEAD answers as GET without a body; OPTIONS is 204 with Allow': async (api, book) => {
    for (const path of ['/books', `/books/${book.id}`]) {
      const got = await api.get(path);
      const head = await api.send('HEAD', path);
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      expect(head.headers.get('content-type')).toBe(got.headers.get('content-type'));
      expect(head.headers.get('etag')).toBe(got.headers.get('etag'));
    }
    expect((await api.send('HEAD', `/books/${book.id + 1_000_000}`)).status).toBe(404);
    const collection = await api.send('OPTIONS', '/books');
    expect(collection.status).toBe(204);
    expect(allowOf(collection)).toEqual(['GET', 'HEAD', 'POST', 'OPTIONS']);
    const member = await api.send('OPTIONS', `/books/${book.id}`);
    expect(member.status).toBe(204);
    expect(allowOf(member)).toEqual(['GET', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS']);
  },

  'an unknown path under the base is a 404 problem': async (api, book) => {
    for (const path of ['/authors', '/authors/1', '/book', '/Books', `/books/${book.id}/chapters`, '/']) {
      expectProblem(await api.get(path), 404);
    }
    expectProblem(await api.json('POST', '/authors', { name: 'Frank Herbert' }), 404);
    expect(await api.list()).toEqual([book]);
  },
});
