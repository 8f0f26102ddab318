// The books example's request log before issue #17: `resourcery` plus one morgan `tiny` line per
// request (`GET /api/books/7 200 312 - 0.412 ms`), as `createApp(store, { logRequests: true })`
// wrote it with `app.use(morgan('tiny'))` until the structured log replaced it. Lines go through
// the same synchronous write per line into /dev/null as resourcery-logged's (pino's default
// destination, as to a stdout piped away), so the two differ in what they log, not in how it is
// written: `node bench/run.mjs --only resourcery,resourcery-morgan,resourcery-logged
// --baseline resourcery-morgan --together`.
import morgan from 'morgan';
import pino from 'pino';
import { createApp } from '../../examples/books/dist/app.js';
import { serve } from '../lib/serve.mjs';
import { seededMemoryStore } from './resourcery.mjs';

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'resourcery-morgan',
  description: "resourcery with the example's request log before #17: a morgan `tiny` line per request",
  optIn: true,
  async start({ books }) {
    const app = createApp(await seededMemoryStore(books));
    const stream = pino.destination({ dest: '/dev/null', sync: true });
    // Called first on every request, as the first middleware of the app was (without mounting
    // the app under another, which would cost a sub-app's prototype switch per request).
    const log = morgan('tiny', { stream });
    return serve((req, res) => log(req, res, () => app(req, res)));
  },
};
