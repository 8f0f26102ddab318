import { memoryStore } from '@resourcery/core';
import { type Collection, type Store, StoreUnavailable } from '@resourcery/core/store';
import { resourcery } from '@resourcery/express';
import { bookResource, type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';

// The contract's last line, which the shared suite cannot provoke: an unreachable store is 503
// and the API recovers when it comes back; any other unexpected error is a generic, logged 500.
let failure: 'none' | 'down' | 'bug' = 'none';
const logged: unknown[] = [];
let target: HttpSuiteTarget;

/** The memory store, failing on demand the way a database driver does. */
function faultyStore(): Store {
  const provider = memoryStore();
  const fail = () => {
    if (failure === 'down') throw new StoreUnavailable(new Error('connect ECONNREFUSED 10.0.0.5:5432'));
    if (failure === 'bug') throw new Error('SELECT secret FROM books\n    at query (/srv/app/store.ts:42:7)');
  };
  return {
    transaction: (work) => provider.transaction(work),
    secret: (name) => provider.secret(name),
    collection(schema) {
      const inner = provider.collection(schema);
      const guarded =
        <A extends unknown[], R>(method: (...args: A) => Promise<R>) =>
        async (...args: A) => {
          fail();
          return method.apply(inner, args);
        };
      return {
        schema,
        list: guarded(inner.list),
        find: guarded(inner.find),
        create: guarded(inner.create),
        update: guarded(inner.update),
        destroy: guarded(inner.destroy),
        transaction: guarded(inner.transaction),
      } as Collection;
    },
  };
}

beforeAll(async () => {
  const app = express();
  app.use('/api', resourcery({ resources: [bookResource()], store: faultyStore(), logError: (e) => logged.push(e) }));
  target = await serveHttp(app);
});
afterAll(() => target.close());

async function createDune(): Promise<Response> {
  return fetch(`${target.baseUrl}/books`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Dune', author: 'Frank Herbert' }),
  });
}

it('an unreachable store is 503 and the API recovers when the store comes back', async () => {
  failure = 'down';
  for (const response of [await fetch(`${target.baseUrl}/books`), await createDune()]) {
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ status: 503, title: expect.any(String), detail: expect.any(String) });
    expect(text).not.toMatch(/ECONNREFUSED|10\.0\.0\.5/);
  }
  expect(logged).toHaveLength(2);
  failure = 'none';
  expect((await createDune()).status).toBe(200);
  expect((await fetch(`${target.baseUrl}/books`)).status).toBe(200);
});

it('any other unexpected error is a generic 500, logged server-side, leaking nothing', async () => {
  logged.length = 0;
  failure = 'bug';
  const response = await fetch(`${target.baseUrl}/books/1`);
  expect(response.status).toBe(500);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const text = await response.text();
  expect(JSON.parse(text)).toMatchObject({ status: 500, title: expect.any(String), detail: expect.any(String) });
  expect(text).not.toMatch(/SELECT|secret|store\.ts|\/srv\/|\bat /);
  expect(logged).toHaveLength(1);
  failure = 'none';
  expect((await fetch(`${target.baseUrl}/books/1`)).status).toBe(200);
});
