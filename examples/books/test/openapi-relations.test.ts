import { defineResource, memoryStore, type OpenApiDocument } from '@resourcery/core';
import { createListener } from '@resourcery/node';
import { Book, type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
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
  // `notes` pages with cursors (`after`), whatever the library's resources do.
  const notes = defineResource({ name: 'note', model: Book, pagination: 'cursor' });
  const resources = [...library, notes];
  target = await serveHttp(createListener({ resources, store: memoryStore(), basePath: '/api' }));
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
): Promise<{ status: number; body: Json; headers: Headers }> {
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
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
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
    const book = (await send('POST', '/books', { title: 'Excession', authorId: author.id, isbn: '978-1000000' })).body
      .book;
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

  it('for operators, filters through a belongs-to, sparse fields and pages walked by their links', async () => {
    const uk = (await send('POST', '/authors', { name: 'Pratchett', country: 'UK' })).body.author;
    const anon = (await send('POST', '/authors', { name: 'Anon' })).body.author;
    const made: Json[] = [];
    for (const [i, year] of [1983, 1987, 1992, null].entries()) {
      const authorId = i % 2 ? anon.id : uk.id;
      made.push((await send('POST', '/books', { title: `The Book ${i}`, authorId, year })).body.book);
    }
    const pick = (book: Json, ...fields: string[]) => Object.fromEntries(['id', ...fields].map((f) => [f, book[f]]));
    const ranged = await send('GET', '/books?filter[year][gte]=1984&filter[year][lt]=2000&fields=title,year');
    expect(ranged.body.books).toEqual([pick(made[2], 'title', 'year'), pick(made[1], 'title', 'year')]);
    const unknown = await send('GET', `/books?filter[year][null]=true&filter[authorId]=${anon.id}&include=author`);
    expect(unknown.body.books).toEqual([{ ...made[3], author: anon }]);
    const british = await send('GET', '/books?filter[author.country]=UK&filter[author.name][contains]=chett&sort=year');
    expect(british.body.books.map((book: Json) => book.id)).toEqual([made[0].id, made[2].id]);
    await send('GET', `/books/${made[0].id}?fields=title&include=author`);
    for (const query of ['filter[year][prefix]=19', 'filter[author.country][gt][]=A', 'fields=nope']) {
      expect((await send('GET', `/books?${query}`)).status, query).toBe(400);
    }
    for (let rating = 1; rating <= 5; rating++) await send('POST', '/reviews', { bookId: made[0].id, rating });
    for (let i = 0; i < 3; i++) await send('POST', '/notes', { name: `Note ${i}`, author: 'Me' });
    for (const path of [`/reviews?filter[bookId]=${made[0].id}&per_page=2&sort=rating`, '/notes?per_page=1']) {
      const seen: unknown[] = [];
      for (let next: string | undefined = path; next !== undefined; ) {
        const page = await send('GET', next);
        seen.push(...page.body[next.slice(1).split('?')[0] as string].map((record: Json) => record.id));
        next = /<\/api([^>]*)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
      }
      expect(new Set(seen).size, path).toBe(seen.length);
      expect(seen.length, path).toBeGreaterThanOrEqual(3);
    }
  });
});
