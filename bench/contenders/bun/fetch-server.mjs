// Run by Bun (see ../resourcery-fetch-bun.mjs): `bun fetch-server.mjs <books>` seeds the memory
// store, serves it with Bun.serve on 127.0.0.1 and prints `port <n>`.
import { memoryStore } from '@resourcery/core';
import { compiledResource } from '@resourcery/core/adapter';
import { createFetchHandler } from '@resourcery/fetch';
import { books as bookResource } from '../../../examples/books/dist/book.js';
import { makeBooks } from '../../data.mjs';

const store = memoryStore();
const collection = store.collection(compiledResource(bookResource).schema);
for (const book of makeBooks(Number(process.argv[2]))) await collection.create(book);
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: createFetchHandler({ resources: [bookResource], store, basePath: '/api' }),
});
console.log(`port ${server.port}`);
