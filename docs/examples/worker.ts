// A Cloudflare Worker (wrangler.toml: compatibility_flags = ["nodejs_compat"], for the node:
// modules the core imports). The memory store lives in one isolate: each isolate has its own
// books, and they are gone when it is evicted. The docs page is off: it reads Swagger UI's files
// from node_modules, which a Worker does not have; /api/openapi.json is served.
import { memoryStore } from '@resourcery/core';
import { createFetchHandler } from '@resourcery/fetch';
import { books } from './book.js';

const handler = createFetchHandler({ resources: [books], store: memoryStore(), basePath: '/api', docs: false });

export default {
  fetch: (request: Request): Promise<Response> => handler(request),
};
