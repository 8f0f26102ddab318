import { compiledResource } from '@resourcery/core/adapter';
import type { Store } from '@resourcery/core/store';
import { resourcery } from '@resourcery/express';
import { bookResource, type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import express from 'express';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyText, contentType, queryString, segment } from './request-arbitraries.js';

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Random requests against the book resource served by Express on `open()`'s store: every answer
 * is a success or a 4xx problem+json (never a 500, never SQL or a file path), nothing reaches the
 * error log, and a request that fails leaves every stored record as it was.
 */
export function neverA500Suite(label: string, open: () => Store, runs: number): void {
  describe(`${label}: any request against a running server`, () => {
    const logged: unknown[] = [];
    const ids: number[] = [];
    const resource = bookResource();
    let target: HttpSuiteTarget;
    let store: Store;

    beforeAll(async () => {
      store = open();
      const app = express().use(
        '/api',
        resourcery({ resources: [resource], store, logError: (error) => logged.push(error) }),
      );
      target = await serveHttp(app);
      for (const author of ['Frank Herbert', 'Jane Austen', 'Frank Herbert']) {
        const reply = await call('POST', '/books', JSON.stringify({ name: 'Dune', author }), 'application/json');
        ids.push(reply.body.book.id);
      }
    });
    afterAll(async () => {
      await target?.close();
      await store?.close?.();
    });

    async function call(method: string, path: string, body?: string, type?: string) {
      const response = await fetch(`${target.baseUrl}${path}`, {
        method,
        headers: type ? { 'content-type': type } : {},
        body: body === undefined ? undefined : new TextEncoder().encode(body),
      });
      const text = await response.text();
      const replyType = response.headers.get('content-type') ?? '';
      const parsed = /json/.test(replyType) && text ? JSON.parse(text) : undefined;
      return { status: response.status, type: replyType, text, body: parsed };
    }

    /** Every stored record in id order, read through the store itself. */
    const snapshot = async () => {
      const { records } = await store.collection(compiledResource(resource).schema).list({
        where: [],
        order: [{ field: 'id', direction: 'asc' }],
        limit: Number.MAX_SAFE_INTEGER,
        offset: 0,
        count: false,
      });
      return JSON.stringify(records);
    };

    /** Sends a request; asserts it is handled and, when it failed, that nothing changed. */
    async function expectHandled(
      allowed: readonly number[],
      method: string,
      path: string,
      body?: string,
      type?: string,
    ) {
      const before = await snapshot();
      const reply = await call(method, path, body, type);
      expect(allowed, `${method} ${path}: ${reply.text}`).toContain(reply.status);
      if (reply.status >= 400) {
        expect(reply.type).toMatch(/^application\/problem\+json/);
        expect(reply.body.status).toBe(reply.status);
        expect(reply.text).not.toMatch(/select |insert |update "|sqlite|postgres|\.ts\b|node_modules/i);
        expect(await snapshot(), `${method} ${path} failed but changed the records`).toBe(before);
      }
      expect(logged).toEqual([]);
      return reply;
    }

    it('index with any query string answers 200 or 400', async () => {
      await fc.assert(
        fc.asyncProperty(queryString, async (query) => {
          const reply = await expectHandled([200, 400], 'GET', `/books?${query}`);
          if (reply.status === 200) expect(Array.isArray(reply.body.books)).toBe(true);
        }),
        { numRuns: runs },
      );
    });

    it('create and update with any body and content type: no 500, failures change nothing', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('POST', 'PATCH'),
          fc.nat({ max: 3 }),
          bodyText,
          contentType,
          async (method, which, body, type) => {
            const path = method === 'POST' ? '/books' : `/books/${ids[which] ?? 999_999}`;
            await expectHandled([200, 400, 404, 413, 415, 422], method, path, body, type);
          },
        ),
        { numRuns: runs },
      );
    });

    it('any method on any record path: no 500, failures change nothing', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'PATCH', 'PUT', 'POST', 'OPTIONS', 'DELETE'),
          segment,
          bodyText,
          async (method, id, body) => {
            // Deleting the seeded records would leave nothing to update: delete only missing ids.
            if (method === 'DELETE' && ids.includes(Number(safeDecode(id)))) return;
            const hasBody = method !== 'GET' && method !== 'OPTIONS';
            await expectHandled(
              [200, 204, 400, 404, 405, 413, 415, 422],
              method,
              `/books/${id}`,
              hasBody ? body : undefined,
              'application/json',
            );
          },
        ),
        { numRuns: runs },
      );
    });
  });
}
