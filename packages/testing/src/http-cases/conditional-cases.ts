import { expect } from 'vitest';
import { expectProblem, type HttpClient } from '../http-client.js';
import { empty, group } from './group.js';

const DUNE = { name: 'Dune', author: 'Frank Herbert' };

async function etag(api: HttpClient, id: number): Promise<string> {
  const reply = await api.get(`/books/${id}`);
  expect(reply.status).toBe(200);
  const tag = reply.headers.get('etag');
  expect(tag).toMatch(/^"[^"]+"$/);
  return tag as string;
}

function patch(api: HttpClient, id: number, value: unknown, ifMatch?: string) {
  return api.send('PATCH', `/books/${id}`, {
    body: JSON.stringify(value),
    headers: ifMatch === undefined ? {} : { 'if-match': ifMatch },
  });
}

/** ETags on show and update; If-None-Match answers 304; If-Match makes writes conditional (412). */
export const conditionalCases = group('conditional requests (ETag)', empty, {
  'show and update carry an ETag that changes with the record': async (api) => {
    const book = await api.create(DUNE);
    const first = await etag(api, book.id);
    expect(await etag(api, book.id)).toBe(first);
    const updated = await patch(api, book.id, { name: 'Dune Messiah' });
    expect(updated.status).toBe(200);
    const next = updated.headers.get('etag');
    expect(next).not.toBe(first);
    expect(await etag(api, book.id)).toBe(next);
  },

  'If-None-Match with the current ETag is 304 without a body': async (api) => {
    const book = await api.create(DUNE);
    const tag = await etag(api, book.id);
    const reply = await api.send('GET', `/books/${book.id}`, { headers: { 'if-none-match': tag } });
    expect(reply.status).toBe(304);
    expect(reply.text).toBe('');
    expect(reply.headers.get('etag')).toBe(tag);
    const stale = await api.send('GET', `/books/${book.id}`, { headers: { 'if-none-match': '"stale"' } });
    expect(stale.status).toBe(200);
  },

  'If-Match with a stale ETag is 412 on update and destroy, and changes nothing': async (api) => {
    const book = await api.create(DUNE);
    const old = await etag(api, book.id);
    expect((await patch(api, book.id, { author: 'F. Herbert' })).status).toBe(200);
    expectProblem(await patch(api, book.id, { name: 'Overwritten' }, old), 412);
    const destroy = await api.send('DELETE', `/books/${book.id}`, { headers: { 'if-match': old } });
    expectProblem(destroy, 412);
    expect(await api.find(book.id)).toEqual({ ...book, author: 'F. Herbert' });
  },

  'If-Match with the current ETag or * lets the write through': async (api) => {
    const book = await api.create(DUNE);
    const current = await etag(api, book.id);
    const updated = await patch(api, book.id, { name: 'Children of Dune' }, current);
    expect(updated.status).toBe(200);
    expect((await patch(api, book.id, { name: 'God Emperor' }, '*')).status).toBe(200);
    const tag = await etag(api, book.id);
    expect((await api.send('DELETE', `/books/${book.id}`, { headers: { 'if-match': `"x", ${tag}` } })).status).toBe(
      204,
    );
  },

  'If-Match uses strong comparison: a weak tag never matches': async (api) => {
    const book = await api.create(DUNE);
    const tag = await etag(api, book.id);
    expectProblem(await patch(api, book.id, { name: 'X' }, `W/${tag}`), 412);
  },

  'two clients writing from the same ETag: exactly one wins, the other gets 412': async (api) => {
    const book = await api.create(DUNE);
    const tag = await etag(api, book.id);
    const replies = await Promise.all([
      patch(api, book.id, { name: 'First' }, tag),
      patch(api, book.id, { name: 'Second' }, tag),
      patch(api, book.id, { author: 'Third' }, tag),
    ]);
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses).toEqual([200, 412, 412]);
    const winner = replies.find((reply) => reply.status === 200);
    expect(await api.find(book.id)).toEqual(winner?.body.book);
  },

  'If-Match on a missing record is 404': async (api) => {
    expectProblem(await patch(api, 987654, { name: 'X' }, '"any"'), 404);
  },
});
