// The books API observed in production, as docs/operations.md describes it: one pino JSON line
// per request, a trace per request with its store calls, and the health probes.
import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import type { Logger } from '@resourcery/core';
import type { Store } from '@resourcery/core/store';
import { healthRoutes, resourcery } from '@resourcery/express';
import express, { type Express } from 'express';
import pino from 'pino';
import { books } from './book.js';

/**
 * Registers an OpenTelemetry SDK once, at start-up: from then on every request is traced. The
 * console exporter prints each span; pass an OTLP exporter to send them to a collector instead.
 */
export function registerTracing(exporter: SpanExporter = new ConsoleSpanExporter()): BasicTracerProvider {
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  return provider;
}

export function observedApp(store: Store, logger: Logger = pino()): Express {
  const app = express();
  const api = resourcery({ resources: [books], store, logger });
  app.use(healthRoutes(api.api, { timeoutMs: 2000 }));
  app.use('/api', api);
  return app;
}
