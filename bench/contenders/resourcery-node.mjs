// The library on plain node:http: the books example's resource through `createListener` of the
// built @resourcery/node adapter, over the memory store of the built @resourcery/core.
import { memoryStore } from '@resourcery/core';
import { compiledResource } from '@resourcery/core/adapter';
import { createListener } from '@resourcery/node';
import { books as bookResource } from '../../examples/books/dist/book.js';
import { serve } from '../lib/serve.mjs';

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'resourcery-node',
  description: 'the books resource through @resourcery/node (createListener + memoryStore) on node:http',
  async start({ books }) {
    const store = memoryStore();
    const collection = store.collection(compiledResource(bookResource).schema);
    for (const book of books) await collection.create(book);
    return serve(createListener({ resources: [bookResource], store, basePath: '/api' }));
  },
};
