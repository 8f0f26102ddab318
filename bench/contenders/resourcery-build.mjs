// The library of another checkout, built (`npm ci && npm run build` there), served as
// `resourcery` serves this one: its books example's app over its memory store. Run both in one
// run to tell what the changes between two commits did to the memory-store numbers:
//   git worktree add --detach /tmp/before <commit> && (cd /tmp/before && npm ci && npm run build)
//   RESOURCERY_BUILD=/tmp/before node bench/run.mjs --only express-by-hand,resourcery,resourcery-build
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '../lib/serve.mjs';

const root = process.env.RESOURCERY_BUILD;

/** An import from the other checkout, resolved from its own node_modules. */
const fromBuild = (path) => import(pathToFileURL(resolve(root, path)).href);

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'resourcery-build',
  description: `resourcery as built in ${root ?? '$RESOURCERY_BUILD (unset)'}`,
  optIn: true,
  async start({ books }) {
    if (!root) throw new Error('resourcery-build: set RESOURCERY_BUILD to another checkout, built');
    const { memoryStore } = await fromBuild('node_modules/@resourcery/core/dist/index.js');
    const { compiledResource } = await fromBuild('node_modules/@resourcery/core/dist/adapter.js');
    const { createApp } = await fromBuild('examples/books/dist/app.js');
    const { books: bookResource } = await fromBuild('examples/books/dist/book.js');
    const store = memoryStore();
    const collection = store.collection(compiledResource(bookResource).schema);
    for (const book of books) await collection.create(book);
    return serve(createApp(store));
  },
};
