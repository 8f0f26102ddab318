// Hono: the API under /api of a Hono app, beside routes of your own. `app.all` hands Hono's
// Request over unchanged, so Location and Link headers keep the /api prefix.
import { memoryStore } from '@resourcery/core';
import { createFetchHandler } from '@resourcery/fetch';
import { Hono } from 'hono';
import { books } from './book.js';

const api = createFetchHandler({ resources: [books], store: memoryStore(), basePath: '/api' });

export const app = new Hono();
app.get('/healthz', (c) => c.json({ status: 'ok' }));
app.all('/api/*', (c) => api(c.req.raw));

// Bun: `export default app`; Deno: `Deno.serve(app.fetch)`; Node: `serve(app)` from @hono/node-server.
