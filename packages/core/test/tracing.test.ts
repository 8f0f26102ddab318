import 'reflect-metadata';
import { trace } from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { bookResource } from '@resourcery/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authors, books, Review } from '../../../test-support/library-resources.js';
import { createApi } from '../src/api/create-api.js';
import type { Context } from '../src/resource/context.js';
import { defineResource } from '../src/resource/define-resource.js';
import { belongsTo } from '../src/resource/relations.js';
import { memoryStore } from '../src/store/memory-store.js';
import type { Collection } from '../src/store/store.js';

const request = (method: string, path: string, rawQuery = '', body?: unknown) => ({
  method,
  path,
  basePath: '/api',
  rawQuery,
  headers: body === undefined ? {} : { 'content-type': 'application/json' },
  parsedBody: body,
});

const exporter = new InMemorySpanExporter();
const sdk = () => new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
beforeEach(() => exporter.reset());
afterEach(() => trace.disable());

/** What a hook of `GET /books` sees of the collections: the ones handed out, and whether they are wrapped. */
function bookApi(options: { tracing?: boolean } = {}) {
  const store = memoryStore();
  const opened = new Set<Collection>();
  const open = store.collection.bind(store);
  store.collection = (schema) => {
    const collection = open(schema);
    opened.add(collection);
    return collection;
  };
  const seen: { wrapped?: boolean; raw?: boolean } = {};
  const book = bookResource({
    hooks: {
      before: {
        index: [
          (ctx) => {
            seen.wrapped = (ctx as unknown as Context).wrapCollection !== undefined;
            seen.raw = opened.has(ctx.collection);
          },
        ],
      },
    },
  });
  return { api: createApi({ resources: [book], store, ...options }), seen };
}

/** The spans of one request, checked to be one trace under its action span. */
function oneTrace(spans: ReadableSpan[], actionName: string) {
  const action = spans.find((span) => span.name === actionName);
  expect(action, `no span ${actionName} among ${spans.map((span) => span.name)}`).toBeDefined();
  expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  const children = spans.filter((span) => span !== action);
  for (const child of children) expect(child.parentSpanContext?.spanId, child.name).toBe(action?.spanContext().spanId);
  return { action, children: children.map((span) => ({ name: span.name, attributes: span.attributes })) };
}

describe('tracing', () => {
  it('without an SDK, makes no span and hands out the store collections unwrapped', async () => {
    const { api, seen } = bookApi();
    expect((await api.handle(request('GET', '/books'))).status).toBe(200);
    expect(seen).toEqual({ wrapped: false, raw: true });
  });

  it('follows the global provider: an SDK registered after createApi traces, none after trace.disable()', async () => {
    const { api, seen } = bookApi();
    await api.handle(request('GET', '/books'));
    expect(seen.wrapped).toBe(false);
    trace.setGlobalTracerProvider(sdk());
    await api.handle(request('GET', '/books'));
    expect(seen).toEqual({ wrapped: true, raw: false });
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['book.store.list', 'book.index']);
    trace.disable();
    exporter.reset();
    await api.handle(request('GET', '/books'));
    expect(seen).toEqual({ wrapped: false, raw: true });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('makes a span per action with a child span per store call', async () => {
    trace.setGlobalTracerProvider(sdk());
    const { api } = bookApi();
    expect((await api.handle(request('POST', '/books', '', { name: 'Dune', author: 'Herbert' }))).status).toBe(200);
    exporter.reset();
    expect((await api.handle(request('GET', '/books'))).status).toBe(200);
    const { action, children } = oneTrace(exporter.getFinishedSpans(), 'book.index');
    expect(action?.attributes).toEqual({
      'resourcery.resource': 'book',
      'resourcery.action': 'index',
      'http.response.status_code': 200,
    });
    expect(children).toEqual([
      {
        name: 'book.store.list',
        attributes: { 'resourcery.resource': 'book', 'resourcery.operation': 'list', 'resourcery.rows': 1 },
      },
    ]);
  });

  it('traces nothing with tracing: false, even with an SDK registered', async () => {
    trace.setGlobalTracerProvider(sdk());
    const { api, seen } = bookApi({ tracing: false });
    await api.handle(request('GET', '/books'));
    expect(seen).toEqual({ wrapped: false, raw: true });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('leaves the store unwrapped when the sampler drops the request', async () => {
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ sampler: new AlwaysOffSampler(), spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    );
    const { api, seen } = bookApi();
    await api.handle(request('GET', '/books'));
    expect(seen).toEqual({ wrapped: false, raw: true });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('traces to the provider given as tracing, whatever is registered globally', async () => {
    const book = bookResource();
    const api = createApi({ resources: [book], store: memoryStore(), tracing: sdk() });
    await api.handle(request('GET', '/books'));
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['book.store.list', 'book.index']);
  });

  it('marks the action span of a server fault as an error, with the exception', async () => {
    trace.setGlobalTracerProvider(sdk());
    const book = bookResource({
      hooks: {
        before: {
          index: [
            () => {
              throw new Error('boom');
            },
          ],
        },
      },
    });
    const api = createApi({ resources: [book], store: memoryStore(), logError: () => {} });
    expect((await api.handle(request('GET', '/books'))).status).toBe(500);
    const [span] = exporter.getFinishedSpans();
    expect(span?.attributes['http.response.status_code']).toBe(500);
    expect(span?.status.code).toBe(2);
    expect(span?.events.map((event) => event.name)).toEqual(['exception']);
  });
});

describe('tracing the queries of transactions, collectionOf and include', () => {
  /** The library's reviews, whose create also touches its book in the same transaction. */
  const reviews = defineResource({
    name: 'review',
    model: Review,
    timestamps: { updatedAt: false },
    relations: { book: belongsTo(() => books, { foreignKey: 'bookId' }) },
    hooks: {
      after: {
        create: [
          (ctx) =>
            ctx.transaction(async () => {
              const record = ctx.record as { bookId: number };
              await ctx.collectionOf(books).update(record.bookId, { title: 'Reviewed' }, []);
              await ctx.collection.find((ctx.record as { id: string }).id, []);
            }),
        ],
      },
    },
  });

  async function library() {
    trace.setGlobalTracerProvider(sdk());
    const api = createApi({ resources: [authors, books, reviews], store: memoryStore() });
    const post = async (path: string, body: unknown) => {
      const response = await api.handle(request('POST', path, '', body));
      expect(response.status, response.body).toBe(200);
      return JSON.parse(response.body as string);
    };
    const { author } = await post('/authors', { name: 'Le Guin' });
    const { book } = await post('/books', { title: 'The Dispossessed', authorId: author.id });
    exporter.reset();
    return { api, post, book };
  }

  it('makes a child span of each store call of a hook, inside ctx.transaction and through ctx.collectionOf', async () => {
    const { post, book } = await library();
    await post('/reviews', { bookId: book.id, rating: 5 });
    const { children } = oneTrace(exporter.getFinishedSpans(), 'review.create');
    expect(children).toEqual([
      expect.objectContaining({
        name: 'review.store.create',
        attributes: expect.objectContaining({ 'resourcery.rows': 1 }),
      }),
      {
        name: 'book.store.update',
        attributes: { 'resourcery.resource': 'book', 'resourcery.operation': 'update', 'resourcery.rows': 1 },
      },
      expect.objectContaining({
        name: 'review.store.find',
        attributes: expect.objectContaining({ 'resourcery.rows': 1 }),
      }),
    ]);
  });

  it('makes a child span of each query of include=', async () => {
    const { api, post, book } = await library();
    await post('/reviews', { bookId: book.id, rating: 4 });
    exporter.reset();
    const response = await api.handle(request('GET', '/books', 'include=author,reviews'));
    expect(response.status).toBe(200);
    const { children } = oneTrace(exporter.getFinishedSpans(), 'book.index');
    expect(children.map((child) => [child.name, child.attributes['resourcery.rows']])).toEqual([
      ['book.store.list', 1],
      ['author.store.list', 1],
      ['review.store.list', 1],
    ]);
  });
});
