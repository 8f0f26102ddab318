// The library as a Fetch handler on Bun: bun/fetch-server.mjs (createFetchHandler of the built
// @resourcery/fetch + memoryStore, on Bun.serve) in a Bun child process; its CPU time is the
// child's. Compare with bun-by-hand, the same API hand-written on Bun.serve.
import { startBunChild } from '../lib/bun-child.mjs';

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'resourcery-fetch-bun',
  description: 'the books resource through @resourcery/fetch (createFetchHandler + memoryStore) on Bun.serve',
  start: ({ books }) => startBunChild('contenders/bun/fetch-server.mjs', books),
};
