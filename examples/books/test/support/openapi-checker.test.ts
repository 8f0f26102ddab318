import { memoryStore, type OpenApiDocument } from '@resourcery/core';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { type Exchange, OpenApiChecker } from './openapi-checker.js';

// The checker must catch drift, or the conformance test proves nothing: each case here edits
// the served document the way a bug would and expects the checker to notice.

let target: HttpSuiteTarget;
let served: OpenApiDocument;

beforeAll(async () => {
  target = await serveHttp(createApp(memoryStore()));
  served = await (await fetch(`${target.baseUrl}/openapi.json`)).json();
  await send('POST', '/books', { name: 'Dune', author: 'Frank Herbert' });
});
afterAll(() => target.close());

async function send(method: string, path: string, body?: unknown): Promise<Exchange> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const init = {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  };
  const response = await fetch(`${target.baseUrl}${path}`, init);
  return {
    method,
    url: new URL(`${target.baseUrl}${path}`),
    requestHeaders: new Headers(init.headers),
    requestBody: init.body,
    status: response.status,
    responseHeaders: response.headers,
    responseBody: await response.text(),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the document is edited as plain JSON
type Json = any;

/** The served document after `edit`. */
function edited(edit: (document: Json) => void): OpenApiChecker {
  const copy: Json = structuredClone(served);
  edit(copy);
  return new OpenApiChecker(copy as OpenApiDocument);
}

describe('the OpenAPI checker', () => {
  it('accepts what the server really does', async () => {
    const checker = new OpenApiChecker(served);
    for (const exchange of [
      await send('GET', '/books?filter[author][]=Frank%20Herbert&sort=-name,id&page=1&per_page=5'),
      await send('POST', '/books', { book: { name: 'Emma', author: 'Jane Austen' } }),
      await send('PATCH', '/books/1', {}),
      await send('GET', '/books/1'),
      await send('POST', '/books', { name: '' }),
    ]) {
      expect(checker.check(exchange).responseProblems).toEqual([]);
    }
  });

  it('tells requests the document admits from those it rejects', async () => {
    const checker = new OpenApiChecker(served);
    const request = async (method: string, path: string, body?: unknown) =>
      checker.check(await send(method, path, body)).request;
    expect(await request('GET', '/books?filter[author]=x&filter[name][]=a&filter[name][]=b')).toBe('valid');
    expect(await request('GET', '/books?foo=bar')).toBe('undescribed');
    for (const query of ['filter[year]=1', 'filter[id]=1e3', 'sort=name,name', 'sort=year', 'page=0', 'per_page=101']) {
      expect(await request('GET', `/books?${query}`), query).toBe('invalid');
    }
    expect(await request('GET', '/books?filter[name]=a&filter[name][]=b')).toBe('invalid');
    expect(await request('POST', '/books', { name: 'Dune' })).toBe('invalid');
    expect(await request('PATCH', '/books/1', { id: 3 })).toBe('invalid');
    expect(await request('GET', '/books/abc')).toBe('invalid');
    expect(await request('PUT', '/books/1')).toBe('invalid');
  });

  it('reads operators and fields, and takes records as whole unless fields narrows them', async () => {
    const checker = new OpenApiChecker(served);
    const request = async (path: string) => checker.check(await send('GET', path)).request;
    expect(await request('/books?filter[name][gte]=A&filter[id][lt]=9&filter[author][prefix]=F')).toBe('valid');
    for (const query of [
      'filter[name][like]=A',
      'filter[id][prefix]=1',
      'filter[name][gt][]=A',
      'fields=nope',
      'after=x',
    ]) {
      expect(await request(`/books?${query}`), query).toBe('invalid');
    }
    expect(await request('/books/1?fields=year')).toBe('invalid');
    const sparse = await send('GET', '/books/1?fields=name');
    expect(checker.check(sparse)).toMatchObject({ request: 'valid', responseProblems: [] });
    // The same body answering a request without `fields` lacks a field of the whole record.
    const unasked = checker.check({ ...sparse, url: new URL(`${target.baseUrl}/books/1`) });
    expect(unasked.responseProblems).toEqual([expect.stringMatching(/must have required property 'author'/)]);
  });

  it('notices an undeclared status', async () => {
    const checker = edited((document) => {
      delete document.paths['/books'].post.responses['422'];
    });
    expect(checker.check(await send('POST', '/books', {})).responseProblems).toEqual([
      'status 422 is not declared for post /books',
    ]);
  });

  it('notices a body or a header that departs from the document', async () => {
    const checker = edited((document) => {
      document.components.schemas.Book.required.push('year');
      document.paths['/books'].get.responses['200'].headers['X-Total-Count'].schema.minimum = 5;
      document.paths['/books'].get.responses['200'].headers.ETag = { required: true, schema: { type: 'string' } };
    });
    const problems = checker.check(await send('GET', '/books')).responseProblems;
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/X-Total-Count.*>= 5/);
    expect(problems.join('\n')).toMatch(/ETag header is missing/);
    expect(problems.join('\n')).toMatch(/must have required property 'year'/);
  });

  it('notices a limit the server does not keep', async () => {
    const checker = edited((document) => {
      const perPage = document.paths['/books'].get.parameters.find((p: { name: string }) => p.name === 'per_page');
      perPage.schema.maximum = 500;
    });
    const verdict = checker.check(await send('GET', '/books?per_page=200'));
    expect(verdict).toMatchObject({ request: 'valid', responseProblems: [] });
    // The conformance test fails this: the document admits the request, the server refuses it.
    expect((await send('GET', '/books?per_page=200')).status).toBe(400);
  });

  it('notices an Allow header that does not list the declared methods', async () => {
    const checker = edited((document) => {
      document.paths['/books/{id}'].put = document.paths['/books/{id}'].patch;
    });
    expect(checker.check(await send('POST', '/books/1', {})).responseProblems).toEqual([
      expect.stringMatching(/^Allow is "GET, HEAD, PATCH, DELETE, OPTIONS" but the document declares/),
    ]);
  });
});
