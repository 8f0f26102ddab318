import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { memoryStore, type OpenApiDocument } from '@resourcery/core';
import { type Collection, type Store, StoreUnavailable } from '@resourcery/core/store';
import { answerClientErrors } from '@resourcery/node';
import { serveHttp } from '@resourcery/testing';
import { httpConformanceSuite } from '@resourcery/testing/suites';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app.js';
import { type Exchange, OpenApiChecker } from './support/openapi-checker.js';

// Every request of the shared HTTP conformance suite, run against the example app, goes through
// a `fetch` that checks the exchange against the app's own served OpenAPI document: the response
// must be one the document declares (status, headers, content type, body), a request the
// document admits must not be refused as malformed, and one it rejects must get a 4xx. So the
// document cannot drift from what the server does.

const realFetch = globalThis.fetch;
const statusesSeen = new Map<string, Set<number>>();
let checker: OpenApiChecker;
let document: OpenApiDocument;

function bodyText(body: unknown): string | undefined | null {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      return '\u0000 not UTF-8';
    }
  }
  return null; // a stream: sent as is, not looked at
}

async function checkedFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const response = await realFetch(input, init);
  const requestHeaders = new Headers(init.headers);
  // The document does not describe the content codings of request bodies (gzip and deflate
  // decoded, others refused): such a request is not judged, only its answer is.
  const coded = requestHeaders.has('content-encoding');
  const exchange: Exchange = {
    method: (init.method ?? 'GET').toUpperCase(),
    url: new URL(input instanceof Request ? input.url : input),
    requestHeaders,
    requestBody: coded ? null : bodyText(init.body),
    status: response.status,
    responseHeaders: response.headers,
    responseBody: await response.clone().text(),
  };
  const verdict = checker.check(exchange);
  const seen = statusesSeen.get(verdict.operation) ?? new Set();
  statusesSeen.set(verdict.operation, seen.add(exchange.status));
  const what = `${exchange.method} ${exchange.url.pathname}${exchange.url.search} answered ${exchange.status}`;
  if (verdict.responseProblems.length > 0) {
    throw new Error(`OpenAPI drift: ${what}:\n- ${verdict.responseProblems.join('\n- ')}`);
  }
  if (!coded && verdict.request === 'valid' && [400, 405, 415, 422].includes(exchange.status)) {
    throw new Error(`OpenAPI drift: ${what}, but the document admits this request`);
  }
  if (verdict.request === 'invalid' && !(exchange.status >= 400 && exchange.status < 500)) {
    throw new Error(`OpenAPI drift: ${what}, but the document rejects it: ${verdict.requestProblems.join('; ')}`);
  }
  return response;
}

beforeAll(async () => {
  const target = await serveHttp(createApp(memoryStore()));
  try {
    document = await (await realFetch(`${target.baseUrl}/openapi.json`)).json();
  } finally {
    await target.close();
  }
  checker = new OpenApiChecker(document);
  vi.stubGlobal('fetch', checkedFetch);
});
afterAll(() => {
  vi.unstubAllGlobals();
});

it('serves a document that passes the OpenAPI 3.1 schema validator', async () => {
  const result = await new Validator().validate(document as unknown as Record<string, unknown>);
  expect(result.errors).toBeUndefined();
  expect(document.openapi).toMatch(/^3\.1\./);
  expect(document.servers).toEqual([{ url: '/api' }]);
});

httpConformanceSuite('the example app, every exchange checked against its OpenAPI document', () =>
  serveHttp(createApp(memoryStore())),
);

/** A store whose every call fails with `error()`. */
function failingStore(error: () => Error): Store {
  const fail = async (): Promise<never> => {
    throw error();
  };
  return {
    transaction: fail,
    secret: fail,
    collection: (schema): Collection => ({
      schema,
      list: fail,
      find: fail,
      create: fail,
      update: fail,
      destroy: fail,
      transaction: fail,
    }),
  };
}

describe.each([
  ['store outage', 503, () => new StoreUnavailable(new Error('connection refused'))],
  ['unexpected error', 500, () => new Error('boom')],
])('every action on a %s', (_, status, error) => {
  it(`answers the documented ${status} problem`, async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const target = await serveHttp(createApp(failingStore(error)));
    try {
      const json = { 'content-type': 'application/json' };
      const requests: [string, string, string?][] = [
        ['GET', '/books?filter[author]=Le%20Guin&sort=-name&page=2&per_page=10'],
        ['POST', '/books', '{"name":"Dune","author":"Frank Herbert"}'],
        ['GET', '/books/1'],
        ['PATCH', '/books/1', '{"book":{"name":"Emma"}}'],
        ['DELETE', '/books/1'],
      ];
      for (const [method, path, body] of requests) {
        const response = await fetch(`${target.baseUrl}${path}`, { method, body, headers: body ? json : {} });
        expect(response.status, `${method} ${path}`).toBe(status);
      }
    } finally {
      await target.close();
      vi.mocked(console.error).mockRestore();
    }
  });
});

/** Sends a request as raw bytes and reads the whole answer (the server closes after a 431). */
function rawExchange(port: number, method: string, path: string, headers: Record<string, string>): Promise<Exchange> {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(`${lines.join('\r\n')}\r\n\r\n`));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      const [statusLine = '', ...fields] = head.split('\r\n');
      const responseHeaders = new Headers();
      for (const field of fields)
        responseHeaders.append(field.slice(0, field.indexOf(':')), field.slice(field.indexOf(':') + 1).trim());
      resolve({
        method,
        url: new URL(`http://127.0.0.1:${port}${path}`),
        requestHeaders: new Headers(),
        requestBody: undefined,
        status: Number(statusLine.split(' ')[1]),
        responseHeaders,
        responseBody: body,
      });
    });
  });
}

it('answers the documented 431 on every operation when the server uses answerClientErrors', async () => {
  const server = answerClientErrors(createServer(createApp(memoryStore())));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    for (const [method, path] of [
      ['GET', '/api/books'],
      ['POST', '/api/books'],
      ['GET', '/api/books/1'],
      ['PATCH', '/api/books/1'],
      ['DELETE', '/api/books/1'],
    ] as const) {
      const exchange = await rawExchange(port, method, path, { 'X-Big': 'a'.repeat(20_000) });
      expect(exchange.status, `${method} ${path}`).toBe(431);
      const verdict = checker.check(exchange);
      expect(verdict.responseProblems, `${method} ${path}`).toEqual([]);
      statusesSeen.set(verdict.operation, (statusesSeen.get(verdict.operation) ?? new Set()).add(431));
    }
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

it('answers operators and sparse fields as documented, and the 400 of an unknown field on show', async () => {
  const target = await serveHttp(createApp(memoryStore()));
  try {
    const json = { 'content-type': 'application/json' };
    const body = JSON.stringify({ name: 'Dune', author: 'Frank Herbert' });
    const { book } = await (await fetch(`${target.baseUrl}/books`, { method: 'POST', headers: json, body })).json();
    expect(await (await fetch(`${target.baseUrl}/books/${book.id}?fields=name`)).json()).toEqual({
      book: { id: book.id, name: 'Dune' },
    });
    expect((await fetch(`${target.baseUrl}/books/${book.id}?fields=nope`)).status).toBe(400);
    const query = 'filter[name][prefix]=Du&filter[id][gte]=1&filter[author][ne]=X&fields=author&sort=-name';
    const listed = await (await fetch(`${target.baseUrl}/books?${query}`)).json();
    expect(listed).toEqual({ books: [{ id: book.id, author: 'Frank Herbert' }] });
    expect((await fetch(`${target.baseUrl}/books?filter[name][lt]=A`)).status).toBe(200);
  } finally {
    await target.close();
  }
});

it('saw every status the document declares, on every operation', () => {
  const missing: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const responses = (operation as { responses?: Record<string, unknown> }).responses;
      for (const status of Object.keys(responses ?? {}).filter((s) => s !== 'default')) {
        if (!statusesSeen.get(`${method} ${path}`)?.has(Number(status))) missing.push(`${method} ${path} ${status}`);
      }
    }
  }
  expect(missing, 'declared responses no exchange produced').toEqual([]);
  expect(statusesSeen.get('405 on /books/{id}')?.has(405)).toBe(true);
});
