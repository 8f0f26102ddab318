import { memoryStore, type OpenApiDocument } from '@resourcery/core';
import { createListener } from '@resourcery/node';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { library } from '../../../test-support/library-resources.js';
import { type Exchange, OpenApiChecker } from './support/openapi-checker.js';

// The served document of related resources (CONTRACT part 3) against what the server answers:
// every exchange below must be one the document declares (status, headers, body), requests the
// document admits must not be refused as malformed, and those it rejects must get a 4xx.

// biome-ignore lint/suspicious/noExplicitAny: bodies are read as plain JSON
type Json = any;
let target: HttpSuiteTarget;
let checker: OpenApiChecker;

beforeAll(async () => {
  target = await serveHttp(createListener({ resources: [...library], store: memoryStore(), basePath: '/api' }));
  const document: OpenApiDocument = await (await fetch(`${target.baseUrl}/openapi.json`)).json();
  checker = new OpenApiChecker(document);
});
afterAll(() => target.close());

/**
 * Sends a request and checks the exchange; answers the parsed body. `refused`: the status of a
 * refusal the document cannot foresee from the request alone (a foreign key naming no record, a
 * unique value taken, a record still referred to).
 */
async function send(
  method: string,
  path: string,
  body?: unknown,
  refused?: number,
): Promise<{ status: number; body: Json }> {
  const init = {
    method,
    headers: (body === undefined ? {} : { 'content-type': 'application/json' }) as Record<string, string>,
    body: body === undefined ? undefined : JSON.stringify(body),
  };
  const response = await fetch(`${target.baseUrl}${path}`, init);
  const text = await response.text();
  const exchange: Exchange = {
    method,
    url: new URL(`${target.baseUrl}${path}`),
    requestHeaders: new Headers(init.headers),
    requestBody: init.body,
    status: response.status,
    responseHeaders: response.headers,
    responseBody: text,
  };
  const verdict = checker.check(exchange);
  const what = `${method} ${path} answered ${response.status}`;
  expect(verdict.responseProblems, what).toEqual([]);
  if (refused !== undefined) expect(response.status, what).toBe(refused);
  else if (verdict.request === 'valid')
    expect([400, 405, 415, 422], `${what}, but the document admits it`).not.toContain(response.status);
  if (verdict.request === 'invalid')
    expect(response.status, `${what}, but the document rejects it`).toBeGreaterThanOrEqual(400);
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

describe('the document of related resources matches the server', () => {
  it('for records with server-set fields, decimals, date-times and uuid ids', async () => {
    const author = (await send('POST', '/authors', { name: 'Le Guin', country: 'US' })).body.author;
    const book = (
      await send('POST', '/books', {
        title: 'A Wizard of Earthsea',
        authorId: author.id,
        price: 8.5,
        publishedAt: '1968-11-01T09:00:00+01:00',
      })
    ).body.book;
    expect(book).toMatchObject({ price: '8.50', publishedAt: '1968-11-01T08:00:00.000Z' });
    const review = (await send('POST', '/reviews', { bookId: book.id, rating: 5, body: 'Timeless' })).body.review;
    await send('GET', `/reviews/${review.id}`);
    await send('PATCH', `/reviews/${review.id}`, { rating: 4 });
    await send('PATCH', `/books/${book.id}`, { price: '9', year: 1968 });
    await send('GET', `/books?filter[price]=9.00&filter[publishedAt]=1968-11-01T08:00:00Z&sort=-price`);
    await send('GET', `/reviews?filter[id]=${review.id.toUpperCase()}`);
    await send('GET', '/reviews/not-a-uuid');
    expect((await send('POST', '/authors', { name: 'X', createdAt: '2024-01-01T00:00:00Z' })).status).toBe(422);
    expect((await send('POST', '/books', { title: 'Y', authorId: author.id, price: '1.234' })).status).toBe(422);
    await send('DELETE', `/reviews/${review.id}`);
  });

  it('for include on show and index, and the relational errors', async () => {
    const author = (await send('POST', '/authors', { name: 'Banks' })).body.author;
    const book = (await send('POST', '/books', { title: 'Excession', authorId: author.id, isbn: '978-1000000' })).body.book;
    await send('POST', '/reviews', { bookId: book.id, rating: 3 });
    const shown = await send('GET', `/books/${book.id}?include=author,reviews`);
    expect(shown.body.book.author.id).toBe(author.id);
    await send('GET', `/authors/${author.id}?include=books`);
    await send('GET', '/authors?include=books&per_page=5');
    await send('GET', '/reviews?include=book');
    expect((await send('GET', `/books/${book.id}?include=publisher`)).status).toBe(400);
    expect((await send('GET', '/books?include=author,author')).status).toBe(400);
    const dangling = await send('POST', '/books', { title: 'Z', authorId: author.id + 99 }, 422);
    expect(dangling.body.errors).toEqual({ authorId: ['does not exist'] });
    const taken = await send('POST', '/books', { title: 'Z', authorId: author.id, isbn: '978-1000000' }, 422);
    expect(taken.body.errors).toEqual({ isbn: ['is already taken'] });
    await send('DELETE', `/authors/${author.id}`, undefined, 409);
  });
});
