import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { memoryStore } from '@resourcery/core';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppOptions, createApp } from '../src/app.js';

async function serve(options: AppOptions) {
  const server = createApp(memoryStore(), options).listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  return {
    fetch: (path: string, init?: RequestInit) => fetch(`http://127.0.0.1:${port}${path}`, init),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const exporter = new InMemorySpanExporter();
beforeAll(() => {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
});
afterAll(() => trace.disable());

describe('observability of the example', () => {
  it('logs one pino JSON line per request, with the request id it sends back', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ base: undefined }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const app = await serve({ logRequests: true, logger });
    try {
      const response = await app.fetch('/api/books', { headers: { 'x-request-id': 'req-42' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toBe('req-42');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 30,
        requestId: 'req-42',
        method: 'GET',
        path: '/books',
        resource: 'book',
        action: 'index',
        status: 200,
        msg: 'request completed',
      });
      expect(typeof lines[0]?.durationMs).toBe('number');
    } finally {
      await app.close();
    }
  });

  it('makes one trace per request, with its store-query spans, as soon as an SDK is registered', async () => {
    const app = await serve({});
    try {
      const created = await app.fetch('/api/books', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Dune', author: 'Frank Herbert' }),
      });
      const { book } = (await created.json()) as { book: { id: number } };
      exporter.reset();
      expect((await app.fetch(`/api/books/${book.id}`)).status).toBe(200);
      const spans = exporter.getFinishedSpans();
      expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
      const action = spans.find((span) => span.name === 'book.show');
      expect(action?.attributes['http.response.status_code']).toBe(200);
      const find = spans.find((span) => span.name === 'book.store.find');
      expect(find?.attributes).toMatchObject({
        'resourcery.resource': 'book',
        'resourcery.operation': 'find',
        'resourcery.rows': 1,
      });
      expect(find?.parentSpanContext?.spanId).toBe(action?.spanContext().spanId);
    } finally {
      await app.close();
    }
  });

  it('logs one line and makes one trace per request, the line naming the trace', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ base: undefined }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const app = await serve({ logRequests: true, logger });
    try {
      exporter.reset();
      const response = await app.fetch('/api/books?sort=-id');
      expect(response.status).toBe(200);
      const requestId = response.headers.get('x-request-id');
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      const spans = exporter.getFinishedSpans();
      expect(spans.map((span) => span.name)).toEqual(['book.store.list', 'book.index']);
      const traceId = spans[1]?.spanContext().traceId;
      expect(spans[0]?.spanContext().traceId).toBe(traceId);
      expect(lines).toEqual([
        expect.objectContaining({ level: 30, requestId, traceId, resource: 'book', action: 'index', status: 200 }),
      ]);
    } finally {
      await app.close();
    }
  });

  it('traces nothing with tracing: false, even with an SDK registered', async () => {
    const app = await serve({ tracing: false });
    try {
      exporter.reset();
      expect((await app.fetch('/api/books')).status).toBe(200);
      expect(exporter.getFinishedSpans()).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
