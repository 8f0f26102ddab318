// The OpenAPI document and the docs page of docs/openapi.md: both on by default, both set here.
import { memoryStore } from '@resourcery/core';
import { resourcery } from '@resourcery/express';
import express from 'express';
import { books } from './book.js';

export const app = express();
app.use(
  '/api',
  resourcery({
    resources: [books],
    store: memoryStore(),
    openapi: { title: 'Books API', version: '1.4.0' }, // or `false` to serve neither
    docs: true, // `false` keeps the document and drops the page
  }),
);
