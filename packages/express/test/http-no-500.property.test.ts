import { memoryStore } from '@resourcery/core';
import { bookResource, type HttpSuiteTarget, serveHttp } from '@resourcery/core/testing';
import { resourcery } from '@resourcery/express';
import express from 'express';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyText, contentType, queryString, segment } from '../../../test-support/request-arbitraries.js';

// Random requests against a running server: whatever a client sends, the answer is a success or a
// 4xx problem, never a 500, and nothing reaches the error log.
const logged: unknown[] = [];
let target: HttpSuiteTarget;
const ids: number[] = [];

beforeAll(async () => {
  const app = express();
  app.use(
    '/api',
    resourcery({ resources: [bookResource()], store: memoryStore(), logError: (error) => logged.push(error) }),
  );
  target = await serveHttp(app);
  for (const author of ['Frank Herbert', 'Jane Austen', 'Frank Herbert']) {
    const reply = await call('POST', '/books', JSON.stringify({ name: 'Dune', author }), 'application/json');
    ids.push(reply.body.book.id);
  }
});
afterAll(() => target.close());

async function call(method: string, path: string, body?: string, contentType?: string) {
  const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
  const response = await fetch(`${target.baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : new TextEncoder().encode(body),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return { status: response.status, type, text, body: /json/.test(type) && text ? JSON.parse(text) : undefined };
}

/** Asserts a reply is a success or a 4xx problem, and that nothing was logged as unexpected. */
function expectHandled(reply: Awaited<ReturnType<typeof call>>, allowed: readonly number[]): void {
  expect(allowed, reply.text).toContain(reply.status);
  if (reply.status >= 400) {
    expect(reply.type).toMatch(/^application\/problem\+json/);
    expect(reply.body.status).toBe(reply.status);
  }
  expect(logged).toEqual([]);
}

describe('any request against a running server', () => {
  it('index with any query string answers 200 or 400', async () => {
    await fc.assert(
      fc.asyncProperty(queryString, async (query) => {
        const reply = await call('GET', `/books?${query}`);
        expectHandled(reply, [200, 400]);
        if (reply.status === 200) expect(Array.isArray(reply.body.books)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('create and update with any body answer 200, 400, 404, 413, 415 or 422', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'PATCH'),
        fc.nat({ max: 3 }),
        bodyText,
        contentType,
        async (method, which, body, type) => {
          const path = method === 'POST' ? '/books' : `/books/${ids[which] ?? 999_999}`;
          expectHandled(await call(method, path, body, type), [200, 400, 404, 413, 415, 422]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('any method on any record path answers without a 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'PATCH', 'DELETE', 'PUT', 'POST', 'OPTIONS'),
        segment,
        bodyText,
        async (method, id, body) => {
          const hasBody = method !== 'GET' && method !== 'OPTIONS';
          const reply = await call(method, `/books/${id}`, hasBody ? body : undefined, 'application/json');
          expectHandled(reply, [200, 204, 400, 404, 405, 413, 415, 422]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
