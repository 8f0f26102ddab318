import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { expect } from 'vitest';
import { type BookJson, expectProblem, type HttpClient } from '../http-client.js';
import { onCreateAndUpdate } from './body-cases.js';
import { empty, group } from './group.js';

const MIB = 1024 * 1024;
const DUNE = { name: 'Dune', author: 'Frank Herbert' };
const VALID = JSON.stringify(DUNE);

/** Sends `body` as the bytes of a JSON body in the given `Content-Encoding`. */
function sendCoded(api: HttpClient, method: string, path: string, body: Uint8Array, coding: string) {
  return api.send(method, path, { body, headers: { 'content-encoding': coding } });
}

/** `Content-Encoding` of request bodies: gzip and deflate are decoded, any other coding is refused. */
export const encodingCases = group('request body content codings', empty, {
  'a gzip or deflate body is decoded, on create and update': async (api) => {
    for (const [coding, encode] of [
      ['gzip', gzipSync],
      ['x-gzip', gzipSync],
      ['deflate', deflateSync],
      ['GZIP', gzipSync],
      ['identity, gzip', gzipSync],
    ] as const) {
      const created = await sendCoded(api, 'POST', '/books', encode(VALID), coding);
      expect(created.status, `${coding}: ${created.text}`).toBe(200);
      const book = created.body.book as BookJson;
      expect(book).toEqual({ id: book.id, ...DUNE });
      const updated = await sendCoded(api, 'PATCH', `/books/${book.id}`, encode('{"name":"Emma"}'), coding);
      expect(updated.status, `${coding}: ${updated.text}`).toBe(200);
      expect(updated.body.book).toEqual({ id: book.id, name: 'Emma', author: DUNE.author });
    }
    const plain = await sendCoded(api, 'POST', '/books', new TextEncoder().encode(VALID), 'identity');
    expect(plain.status, plain.text).toBe(200);
  },

  'a body in any other content coding is 415 naming the accepted ones, and is never stored as is': (api) =>
    onCreateAndUpdate(api, async (method, path) => {
      const plain = new TextEncoder().encode(VALID);
      for (const [coding, body] of [
        ['br', brotliCompressSync(VALID)],
        ['br', plain],
        ['compress', plain],
        ['zstd', plain],
        ['x-unknown', plain],
        ['gzip, gzip', gzipSync(gzipSync(VALID))],
      ] as const) {
        const reply = await sendCoded(api, method, path, body, coding);
        const problem = expectProblem(reply, 415);
        expect(problem.code, coding).toBe('unsupported_media_type');
        expect(reply.headers.get('accept-encoding'), coding).toMatch(/\bgzip\b/);
      }
    }),

  'a body that is not data of its declared coding is 400': (api) =>
    onCreateAndUpdate(api, async (method, path) => {
      const gzipped = gzipSync(VALID);
      for (const [coding, body] of [
        ['gzip', new TextEncoder().encode(VALID)],
        ['gzip', gzipped.subarray(0, gzipped.byteLength - 6)],
        ['deflate', gzipped],
      ] as const) {
        expectProblem(await sendCoded(api, method, path, body, coding), 400);
      }
    }),

  'a body over 1 MiB once decoded is 413, however small it travels': (api) =>
    onCreateAndUpdate(api, async (method, path) => {
      // About 2 KiB on the wire, 4 MiB decoded: the limit applies to what the API would parse.
      const bomb = gzipSync(JSON.stringify({ name: 'x'.repeat(4 * MIB), author: 'y' }));
      expect(bomb.byteLength).toBeLessThan(64 * 1024);
      expectProblem(await sendCoded(api, method, path, bomb, 'gzip'), 413);
      const justOver = deflateSync(VALID + ' '.repeat(MIB + 1 - VALID.length));
      expectProblem(await sendCoded(api, method, path, justOver, 'deflate'), 413);
    }),

  'a body of exactly 1 MiB once decoded is read': async (api) => {
    const reply = await sendCoded(api, 'POST', '/books', gzipSync(VALID + ' '.repeat(MIB - VALID.length)), 'gzip');
    expect(reply.status, reply.text).toBe(200);
  },
});
