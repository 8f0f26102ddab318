// The library as a user runs it: the books example's app (examples/books/dist/app.js, the
// built `createApp`) over the memory store of the built @resourcery/core.
import { memoryStore } from '@resourcery/core';
import { compiledResource } from '@resourcery/core/adapter';
import { createApp } from '../../examples/books/dist/app.js';
import { books as bookResource } from '../../examples/books/dist/book.js';
import { serve } from '../lib/serve.mjs';

/**
 * A memory store holding `books`, seeded through the public Collection interface, in order, so
 * that ids run 1..N as in every contender (also for the variants of this contender).
 */
export async function seededMemoryStore(books) {
  const store = memoryStore();
  const collection = store.collection(compiledResource(bookResource).schema);
  for (const book of books) await collection.create(book);
  return store;
}

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'resourcery',
  description: 'the books example (createApp + memoryStore) on Express 5',
  async start({ books }) {
    return serve(createApp(await seededMemoryStore(books)));
  },
};
