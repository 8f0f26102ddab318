// The observed set-up of docs/operations.md over real HTTP: one log line and one trace per request.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { memoryStore } from '@resourcery/core';
import pino from 'pino';
import { afterAll, expect, it } from 'vitest';
import { observedApp, registerTracing } from './observability.js';

const exporter = new InMemorySpanExporter();
const provider = registerTracing(exporter);
const lines: Record<string, unknown>[] = [];
const logger = pino({}, { write: (line: string) => void lines.push(JSON.parse(line)) });
const server = observedApp(memoryStore(), logger).listen(0);
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  trace.disable();
});

it('logs one line and makes one trace with its store spans per request', async () => {
  if (!server.listening) await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  expect((await fetch(`${origin}/readyz`)).status).toBe(200);
  const response = await fetch(`${origin}/api/books`);
  expect(response.status).toBe(200);
  const id = response.headers.get('x-request-id');
  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  expect(spans.map((span) => span.name)).toEqual(['book.store.list', 'book.index']);
  const traceId = spans[1]?.spanContext().traceId;
  expect(lines).toEqual([
    expect.objectContaining({ requestId: id, traceId, resource: 'book', action: 'index', status: 200 }),
  ]);
});
