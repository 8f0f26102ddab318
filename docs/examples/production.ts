// The books API set up for production, as docs/deployment.md describes it: one pooled store per
// process, health and readiness probes, CORS, rate limiting, and the Node server's helpers.
import { createServer, type Server } from 'node:http';
import type { Store } from '@resourcery/core/store';
import { healthRoutes, resourcery } from '@resourcery/express';
import { answerClientErrors, deferContinue } from '@resourcery/node';
import { sqlStore } from '@resourcery/sql';
import cors from 'cors';
import express, { type Express } from 'express';
import { rateLimit } from 'express-rate-limit';
import { books } from './book.js';

/** One store per process, shared by every resource: one pool of at most 20 connections. */
export function openStore(url = process.env.DATABASE_URL ?? 'sqlite::memory:'): Store {
  return sqlStore(url, { poolSize: 20, connectTimeoutMs: 3000 });
}

/** The app, and `ready()`: the store connected and its tables created or checked. */
export type ProductionApp = Express & { ready(): Promise<void> };

export function productionApp(store: Store): ProductionApp {
  const app = express();
  const api = resourcery({ resources: [books], store });
  // GET /healthz (liveness) and GET /readyz (stores answer within 2 s, else 503 problem+json).
  app.use(healthRoutes(api.api, { timeoutMs: 2000 }));

  app.use('/api', cors({ origin: ['https://app.example.com'], exposedHeaders: ['ETag', 'Link', 'X-Total-Count'] }));
  app.set('trust proxy', 1); // behind one load balancer: rate-limit by the client's address, not the balancer's
  app.use('/api', rateLimit({ windowMs: 60_000, limit: 300, standardHeaders: 'draft-8', legacyHeaders: false }));
  app.use('/api', api);
  return Object.assign(app, { ready: () => api.api.ready() });
}

export async function listen(app: ProductionApp, port = 3000): Promise<Server> {
  // Before listening: a database out of reach, or a table that does not fit its declaration,
  // rejects here (and the process stops) instead of answering every request with an error.
  await app.ready();
  const server = createServer(app);
  answerClientErrors(server); // requests Node cannot parse: 431, 414, 400 as problem+json, not a bare status line
  deferContinue(server); // `Expect: 100-continue`: the 100 only when the body is read
  return server.listen(port);
}
