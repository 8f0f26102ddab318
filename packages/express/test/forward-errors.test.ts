import type { AddressInfo } from 'node:net';
import { HttpError, memoryStore, UnauthorizedError } from '@resourcery/core';
import { type Collection, ConstraintViolation, type Store } from '@resourcery/core/store';
import { resourcery } from '@resourcery/express';
import { bookResource } from '@resourcery/testing';
import express, { type ErrorRequestHandler } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { exchange, statusLines } from '../../node/test/raw-client.js';
import { call, serve } from './serve.js';

/** The memory store, whose create breaks a unique constraint for the name "Taken". */
function uniqueNames(): Store {
  const provider = memoryStore();
  return {
    transaction: (work) => provider.transaction(work),
    secret: (name) => provider.secret(name),
    collection(schema) {
      const inner = provider.collection(schema);
      return Object.assign(Object.create(inner) as Collection, {
        create(values: Record<string, never>) {
          if ((values as { name?: string }).name === 'Taken') {
            throw new ConstraintViolation('unique', 'name', new Error('duplicate key "books_name_key"'));
          }
          return inner.create(values);
        },
      });
    },
  };
}

const books = bookResource({
  hooks: {
    before: {
      index: (ctx) => {
        if (ctx.request.headers.authorization === undefined)
          throw new UnauthorizedError('Sign in', { 'WWW-Authenticate': 'Bearer' });
      },
      destroy: () => {
        throw new Error('audit log unavailable');
      },
    },
  },
});

let close: () => Promise<void> = async () => {};
afterEach(() => close());

/** An app whose own error handler answers `{ error: { status, message } }` and records what it saw. */
async function start(forwardErrors: boolean) {
  const seen: unknown[] = [];
  const logged: unknown[] = [];
  const app = express();
  app.use(
    '/api',
    resourcery({ resources: [books], store: uniqueNames(), forwardErrors, logError: (e) => logged.push(e) }),
  );
  const teamHandler: ErrorRequestHandler = (error, _req, res, _next) => {
    seen.push(error);
    const status = error.status ?? 500;
    res
      .status(status)
      .set(error.headers ?? {})
      .json({ error: { status, message: status < 500 ? error.message : 'Oops' } });
  };
  app.use(teamHandler);
  const server = await serve(app);
  close = server.close;
  return { api: server.api, seen, logged };
}

describe('resourcery({ forwardErrors: true })', () => {
  it("passes what hooks throw to the app's error handler, as thrown", async () => {
    const { api, seen, logged } = await start(true);
    const created = await call(`${api}/books`, 'POST', { name: 'Dune', author: 'Frank Herbert' });
    expect(created.status).toBe(200);
    const { book } = await created.json();

    const refused = await call(`${api}/books`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect(await refused.json()).toEqual({ error: { status: 401, message: 'Sign in' } });
    expect(seen[0]).toBeInstanceOf(UnauthorizedError);

    const failed = await call(`${api}/books/${book.id}`, 'DELETE');
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: { status: 500, message: 'Oops' } });
    expect((seen[1] as Error).message).toBe('audit log unavailable');
    expect(logged, 'the app logs what it is handed, not the API').toEqual([]);
  });

  it('passes the library’s own errors and store errors as HttpError, with status, code and headers', async () => {
    const { api, seen } = await start(true);
    const cases = [
      { reply: await call(`${api}/books/999`, 'GET'), status: 404, code: 'not_found' },
      { reply: await call(`${api}/books`, 'PUT'), status: 405, code: 'method_not_allowed' },
      { reply: await call(`${api}/books`, 'POST', { name: 'Dune' }), status: 422, code: 'validation_failed' },
      {
        reply: await call(`${api}/books`, 'POST', { name: 'Taken', author: 'x' }),
        status: 422,
        code: 'validation_failed',
      },
    ];
    cases.forEach(({ reply, status, code }, i) => {
      expect(reply.status).toBe(status);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(seen[i]).toBeInstanceOf(HttpError);
      expect(seen[i]).toMatchObject({ status, code });
    });
    expect(cases[1]?.reply.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    expect((seen[2] as HttpError).errors).toHaveProperty('author');
    expect((seen[3] as HttpError).cause).toBeInstanceOf(Error);
  });

  it('a 413 the app answers still reaches a client that keeps sending its body', async () => {
    const { api, seen } = await start(true);
    const { port } = new URL(api);
    const head = `POST /api/books HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${3 * 1024 * 1024}\r\n\r\n`;
    const replies = await Promise.all(
      Array.from({ length: 4 }, () => exchange(Number(port), head, { size: 3 * 1024 * 1024 })),
    );
    for (const { answer, error } of replies) {
      expect(error).toBeUndefined();
      expect(statusLines(answer)).toEqual(['HTTP/1.1 413 Payload Too Large']);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    }
    expect(seen).toHaveLength(4);
  });

  it('without it, the app’s error handler sees nothing: every error is problem+json', async () => {
    const { api, seen } = await start(false);
    for (const reply of [await call(`${api}/books`), await call(`${api}/books/1`, 'DELETE')]) {
      expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
    expect(seen).toEqual([]);
  });
});

describe('a 413 answered by the API through Express', () => {
  it('reaches several clients that keep sending a 3 MB body, none of them reset', async () => {
    const app = express().use('/api', resourcery({ resources: [bookResource()], store: memoryStore() }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const { port } = server.address() as AddressInfo;
    const head = `POST /api/books HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${3 * 1024 * 1024}\r\n\r\n`;
    const replies = await Promise.all(Array.from({ length: 8 }, () => exchange(port, head, { size: 3 * 1024 * 1024 })));
    for (const { answer, error } of replies) {
      expect(error).toBeUndefined();
      expect(statusLines(answer)).toEqual(['HTTP/1.1 413 Payload Too Large']);
    }
  });
});
