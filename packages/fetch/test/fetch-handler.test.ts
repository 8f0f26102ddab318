// What the Fetch adapter adds to the core's answers, called in process with Requests.
import { memoryStore } from '@resourcery/core';
import { bookResource } from '@resourcery/testing';
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../src/index.js';

const handler = () => createFetchHandler({ resources: [bookResource()], store: memoryStore(), basePath: '/api' });
const MIB = 1024 * 1024;

/** A chunked body of `size` bytes, counting what was read of it. */
function counted(size: number) {
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const seen = { read: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.read >= size) return controller.close();
      seen.read += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

describe('createFetchHandler', () => {
  it('answers outside basePath with the 404 problem', async () => {
    const response = await handler()(new Request('http://localhost/elsewhere'));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends no Connection header on a 413 (the runtime owns the connection), and drains the rest', async () => {
    const { stream, seen } = counted(2 * MIB);
    const request = new Request('http://localhost/api/books', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    const response = await handler()(request);
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBeNull();
    await expect.poll(() => seen.read).toBeGreaterThanOrEqual(2 * MIB);
    expect(seen.cancelled).toBe(false);
  });

  it('never touches the body of a GET or HEAD (@hono/node-server builds a whole Request for it)', async () => {
    const serve = handler();
    for (const method of ['GET', 'HEAD']) {
      const request = new Request('http://localhost/api/books', { method });
      Object.defineProperty(request, 'body', {
        get: () => {
          throw new Error(`${method}: body read`);
        },
      });
      expect((await serve(request)).status).toBe(200);
    }
  });
});
