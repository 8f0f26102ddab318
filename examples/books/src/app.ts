import 'reflect-metadata';
import { type StoreProvider } from '@resourcery/core';
import { resourcery } from '@resourcery/express';
import express, { type Express } from 'express';
import morgan from 'morgan';
import { books } from './book.js';

/** The books API on an Express app, mounted under `/api`; `logRequests` logs one line per request. */
export function createApp(store: StoreProvider, { logRequests = false } = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  if (logRequests) app.use(morgan('tiny'));
  // Also serves the OpenAPI document at /api/openapi.json and its docs page at /api/docs.
  app.use('/api', resourcery({ resources: [books], store, openapi: { title: 'Books API', version: '1.0.0' } }));
  return app;
}
