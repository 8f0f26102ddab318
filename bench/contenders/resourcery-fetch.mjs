// The library as a Fetch handler on Node: the books example's resource through
// `createFetchHandler` of the built @resourcery/fetch, served by @hono/node-server (node:http
// translated to and from Request/Response), over the memory store of the built @resourcery/core.
import { ServerResponse } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { memoryStore } from '@resourcery/core';
import { compiledResource } from '@resourcery/core/adapter';
import { createFetchHandler } from '@resourcery/fetch';
import { books as bookResource } from '../../examples/books/dist/book.js';
import { listenOnFreePort } from '../lib/serve.mjs';

// @hono/node-server labels every response that has no Content-Type `text/plain`, a 204 too;
// the checks compare Content-Type, so in this process a bodiless answer loses that label again.
const writeHead = ServerResponse.prototype.writeHead;
ServerResponse.prototype.writeHead = function (status, ...rest) {
  const headers = rest.at(-1);
  if ((status === 204 || status === 304) && headers && typeof headers === 'object') delete headers['content-type'];
  return writeHead.call(this, status, ...rest);
};

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'resourcery-fetch',
  description: 'the books resource through @resourcery/fetch (createFetchHandler + memoryStore) on @hono/node-server',
  async start({ books }) {
    const store = memoryStore();
    const collection = store.collection(compiledResource(bookResource).schema);
    for (const book of books) await collection.create(book);
    const server = createAdaptorServer({
      fetch: createFetchHandler({ resources: [bookResource], store, basePath: '/api' }),
    });
    return listenOnFreePort(server);
  },
};
