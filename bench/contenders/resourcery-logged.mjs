// The books example as production runs it: `resourcery` plus one pino JSON line per request at
// level info, written asynchronously in 4 KB batches (pino's documented asynchronous logging,
// as to a stdout piped away; here to /dev/null), and no OpenTelemetry SDK registered. Its ratio
// to `resourcery` is the cost of the request log and of the check for an SDK:
// `node bench/run.mjs --only resourcery,resourcery-logged --baseline resourcery`.
// LOG_DEST picks where pino writes, to tell its parts apart: `async` (the default above), `sync`
// (a write(2) per line), `discard` (pino serializes each line, a stream drops it: the library's
// part and pino's, without the write).
import pino from 'pino';
import { createApp } from '../../examples/books/dist/app.js';
import { serve } from '../lib/serve.mjs';
import { seededMemoryStore } from './resourcery.mjs';

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'resourcery-logged',
  description: 'resourcery with a pino line per request (level info, asynchronous), no OpenTelemetry SDK',
  optIn: true,
  async start({ books }) {
    const store = await seededMemoryStore(books);
    const destinations = {
      async: () => pino.destination({ dest: '/dev/null', sync: false, minLength: 4096 }),
      sync: () => pino.destination({ dest: '/dev/null', sync: true }),
      discard: () => ({ write() {} }),
    };
    const destination = destinations[process.env.LOG_DEST ?? 'async'];
    if (!destination) throw new Error(`LOG_DEST: one of ${Object.keys(destinations).join(', ')}`);
    const logger = pino({ level: 'info' }, destination());
    return serve(createApp(store, { logRequests: true, logger }), () => logger.flush?.());
  },
};
