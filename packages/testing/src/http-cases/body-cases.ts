import { expect } from 'vitest';
import { type BookJson, expectProblem, type HttpClient } from '../http-client.js';
import { empty, group } from './group.js';

const MIB = 1024 * 1024;
const VALID = JSON.stringify({ name: 'Dune', author: 'Frank Herbert' });

/**
 * Runs `attempt` against create and against update of a stored book, and asserts afterwards
 * that nothing was stored or changed.
 */
export async function onCreateAndUpdate(
  api: HttpClient,
  attempt: (method: string, path: string) => Promise<void>,
): Promise<void> {
  const book = await api.create({ name: 'Emma', author: 'Jane Austen' });
  const before = await api.count();
  await attempt('POST', '/books');
  await attempt('PATCH', `/books/${book.id}`);
  expect(await api.count(), 'nothing was created').toBe(before);
  expect(await api.find(book.id), 'nothing was changed').toEqual(book);
}

/** A chunked body (no Content-Length) of `size` bytes that, if `stall`, never ends. */
function stream(size: number, stall: boolean): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) {
        // A stalled upload proves the server answered without waiting for the whole body.
        if (!stall) controller.close();
        return stall ? new Promise<void>(() => undefined) : undefined;
      }
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

/** Content types, JSON syntax, body shape and size, for create and update. */
export const bodyCases = group('request bodies', empty, {
  'a body without Content-Type is 415': (api) =>
    onCreateAndUpdate(api, async (method, path) => {
      const body = new TextEncoder().encode(VALID);
      expectProblem(await api.send(method, path, { body, contentType: null }), 415);
    }),

  'a body of another content type is 415': (api) =>
    onCreateAndUpdate(api, async (method, path) => {
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'text/json',
        'application/jsonp',
        'application/xml',
      ]) {
        expectProblem(await api.send(method, path, { body: VALID, contentType: type }), 415);
      }
    }),

  'application/json with a charset and +json media types are accepted': async (api) => {
    for (const type of [
      'application/json; charset=utf-8',
      'application/vnd.api+json',
      'application/merge-patch+json',
      'Application/JSON',
    ]) {
      const created = await api.send('POST', '/books', { body: VALID, contentType: type });
      expect(created.status, `${type}: ${created.text}`).toBe(200);
      const id = (created.body.book as BookJson).id;
      const updated = await api.send('PATCH', `/books/${id}`, { body: '{"name":"Emma"}', contentType: type });
      expect(updated.status, `${type}: ${updated.text}`).toBe(200);
      expect(updated.body.book).toEqual({ id, name: 'Emma', author: 'Frank Herbert' });
    }
  },

  'syntactically broken JSON is 400': (api) =>
    onCreateAndUpdate(api, async (method, path) => {
      for (const text of [
        '{"name":',
        "{name: 'Dune'}",
        '',
        ' ',
        `${VALID}}`,
        `${VALID} x`,
        '{"name":"Dune",}',
        'undefined',
        'NaN',
      ]) {
        expectProblem(await api.send(method, path, { body: text }), 400);
      }
    }),

  'a body that is not a JSON object is 400': (api) =>
    onCreateAndUpdate(api, async (method, path) => {
      for (const text of ['[]', `[${VALID}]`, '"Dune"', '42', '-1.5', 'null', 'true', 'false']) {
        expectProblem(await api.send(method, path, { body: text }), 400);
      }
    }),

  'a body of exactly 1 MiB is read': async (api) => {
    const body = VALID + ' '.repeat(MIB - VALID.length);
    expect(Buffer.byteLength(body)).toBe(MIB);
    const reply = await api.send('POST', '/books', { body });
    expect(reply.status, reply.text).toBe(200);
  },

  'a body over 1 MiB with Content-Length is 413': (api) =>
    onCreateAndUpdate(api, async (method, path) => {
      expectProblem(await api.send(method, path, { body: VALID + ' '.repeat(MIB + 1 - VALID.length) }), 413);
      const big = JSON.stringify({ name: 'x'.repeat(2 * MIB), author: 'y' });
      expectProblem(await api.send(method, path, { body: big }), 413);
    }),

  'a chunked body over 1 MiB is 413, answered before the body ends': (api) =>
    onCreateAndUpdate(api, async (method, path) => {
      expectProblem(await api.send(method, path, { body: stream(2 * MIB, false) }), 413);
      const abort = new AbortController();
      try {
        expectProblem(
          await api.send(method, path, { body: stream(MIB + 128 * 1024, true), signal: abort.signal }),
          413,
        );
      } finally {
        abort.abort();
      }
    }),
});
