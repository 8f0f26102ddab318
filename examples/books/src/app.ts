import 'reflect-metadata';
import type { Store } from '@resourcery/core';
import { compiledResource, unknownPathResponse } from '@resourcery/core/adapter';
import { resourcery } from '@resourcery/express';
import express, { type Express } from 'express';
import morgan from 'morgan';
import { books } from './book.js';

export interface AppOptions {
  /** Logs one line per request. */
  logRequests?: boolean;
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
export function createApp(store: Store, { logRequests = false, readyTimeoutMs = 2000 }: AppOptions = {}): BooksApp {
  const app = express();
  app.disable('x-powered-by');
  if (logRequests) app.use(morgan('tiny'));
  // Also serves the OpenAPI document at /api/openapi.json and its docs page at /api/docs.
  const api = resourcery({
    resources: [books],
    store,
    openapi: { title: 'Books API', version: '1.0.0', license: { name: 'MIT', identifier: 'MIT' } },
  });
  const probe = store.collection(compiledResource(books).schema);

  app.get('/healthz', (_req, res) => {
    res.set({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }).json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    res.set({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    let timer: NodeJS.Timeout | undefined;
    try {
      const check = (async () => {
        await api.api.ready(); // tables created, connections possible
        await probe.list({
          where: [],
          order: [{ field: 'id', direction: 'asc' }],
          limit: 1,
          offset: 0,
          count: false,
        });
      })();
      check.catch(() => {}); // when the timeout wins, the late failure is not unhandled
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), readyTimeoutMs);
      });
      await Promise.race([check, timeout]);
      res.json({ status: 'ready' });
    } catch {
      // The cause stays on the server: the probe tells nothing about the database.
      res
        .status(503)
        .set('retry-after', '1')
        .type('application/problem+json')
        .send(
          JSON.stringify({
            type: 'about:blank',
            title: 'Service Unavailable',
            status: 503,
            code: 'service_unavailable',
            detail: 'The store does not answer',
          }),
        );
    } finally {
      clearTimeout(timer);
    }
  });

  app.use('/api', api);
  // Outside /api too, an unknown path is a problem+json 404 (not Express's HTML page), never sniffed.
  app.use((req, res) => {
    const problem = unknownPathResponse(req.path);
    res.status(problem.status).set(problem.headers).end(problem.body);
  });
  return Object.assign(app, { ready: () => api.api.ready() });
}
