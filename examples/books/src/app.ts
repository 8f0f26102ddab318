import 'reflect-metadata';
import type { Logger } from '@resourcery/core';
import { unknownPathResponse } from '@resourcery/core/adapter';
import type { Store } from '@resourcery/core/store';
import { healthRoutes, resourcery } from '@resourcery/express';
import express, { type Express } from 'express';
import pino from 'pino';
import { books } from './book.js';

export interface AppOptions {
  /** Logs one JSON line per API request, with pino (or with `logger`). */
  logRequests?: boolean;
  /** The structured logger of `logRequests`. Default: pino to stdout. */
  logger?: Logger;
  /**
   * `false` turns tracing off. By default a request gets a span, and each of its store queries
   * a child span, whenever an OpenTelemetry SDK is registered globally; else nothing is traced.
   */
  tracing?: boolean;
  /** How long `/readyz` waits for the store before answering 503. Default 2000 ms. */
  readyTimeoutMs?: number;
}

/** The app, and `ready()`: resolves once the store is prepared (connected, tables created), else rejects. */
export type BooksApp = Express & { ready(): Promise<void> };

/**
 * The books API on an Express app, mounted under `/api`, with two probes for orchestrators and
 * load balancers: `GET /healthz` (liveness: 200 while the process runs) and `GET /readyz`
 * (readiness: 200 when the store answers a cheap query, 503 problem+json when it does not).
 */
export function createApp(store: Store, options: AppOptions = {}): BooksApp {
  const { logRequests = false, readyTimeoutMs = 2000, tracing } = options;
  const app = express();
  app.disable('x-powered-by');
  // Also serves the OpenAPI document at /api/openapi.json and its docs page at /api/docs.
  const api = resourcery({
    resources: [books],
    store,
    logger: logRequests ? (options.logger ?? pino()) : undefined,
    tracing,
    openapi: { title: 'Books API', version: '1.0.0', license: { name: 'MIT', identifier: 'MIT' } },
  });
  app.use(healthRoutes(api.api, { timeoutMs: readyTimeoutMs }));
  app.use('/api', api);
  // Outside /api too, an unknown path is a problem+json 404 (not Express's HTML page), never sniffed.
  app.use((req, res) => {
    const problem = unknownPathResponse(req.path);
    res.status(problem.status).set(problem.headers).end(problem.body);
  });
  return Object.assign(app, { ready: () => api.api.ready() });
}
