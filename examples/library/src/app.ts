import 'reflect-metadata';
import type { ApiOptions } from '@resourcery/core';
import { unknownPathResponse } from '@resourcery/core/adapter';
import type { Store } from '@resourcery/core/store';
import { resourcery } from '@resourcery/express';
import express, { type Express } from 'express';
import { resources } from './resources.js';

/**
 * The library API (authors, books, reviews) on an Express app, under `/api`: relations with
 * `include=`, timestamps, a unique ISBN, decimal prices, uuid review ids. `more` resources are
 * mounted beside them (the conformance suite adds one with a `json` attribute).
 */
export function createApp(
  store: Store,
  more: ApiOptions['resources'] = [],
): Express & { ready(): Promise<void>; close(): Promise<void> } {
  const app = express();
  app.disable('x-powered-by');
  const api = resourcery({
    resources: [...resources, ...more],
    store,
    openapi: { title: 'Library API', version: '1.0.0', license: { name: 'MIT', identifier: 'MIT' } },
  });
  app.use('/api', api);
  app.use((req, res) => {
    const problem = unknownPathResponse(req.path);
    res.status(problem.status).set(problem.headers).end(problem.body);
  });
  return Object.assign(app, { ready: () => api.api.ready(), close: () => api.api.close() });
}
