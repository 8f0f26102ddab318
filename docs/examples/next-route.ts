// Next.js (App Router): save as app/api/[...path]/route.ts. Every method goes to one handler,
// which reads the whole path (basePath '/api', where the route lives).
import { memoryStore } from '@resourcery/core';
import { createFetchHandler } from '@resourcery/fetch';
import { books } from './book.js';

const handler = createFetchHandler({ resources: [books], store: memoryStore(), basePath: '/api' });

// Answers depend on the store, never on the build: no static rendering, no caching.
export const dynamic = 'force-dynamic';
// The default Node.js runtime: the SQL drivers need it (the edge runtime has no TCP sockets).
export const runtime = 'nodejs';

export { handler as DELETE, handler as GET, handler as HEAD, handler as OPTIONS, handler as PATCH, handler as POST };
