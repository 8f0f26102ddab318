// The limit on Bun: the same API hand-written on Bun.serve (bun/by-hand-server.mjs, the rules
// of by-hand/books.mjs, as node-by-hand does on node:http) in a Bun child process; its CPU time
// is the child's.
import { startBunChild } from '../lib/bun-child.mjs';

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'bun-by-hand',
  description: 'the same API hand-written on Bun.serve (the limit on Bun: no framework)',
  start: ({ books }) => startBunChild('contenders/bun/by-hand-server.mjs', books),
};
