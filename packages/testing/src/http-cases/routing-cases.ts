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

  'an unknown path under the base is a 404 problem': async (api, book) => {
    for (const path of ['/authors', '/authors/1', '/book', '/Books', `/books/${book.id}/chapters`, '/']) {
      expectProblem(await api.get(path), 404);
    }
    expectProblem(await api.json('POST', '/authors', { name: 'Frank Herbert' }), 404);
    expect(await api.list()).toEqual([book]);
  },
});
