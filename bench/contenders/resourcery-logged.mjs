// The books example as production runs it: `resourcery` plus one pino JSON line per request at
// level info, written as `pino()` writes by default (a synchronous write per line, as to a
// stdout piped away; here to /dev/null), and no OpenTelemetry SDK registered. Its ratio to
// `resourcery` is the cost of the request log and of the check for an SDK; to
// `resourcery-morgan`, the cost against the example's request log before it:
// `node bench/run.mjs --only resourcery,resourcery-morgan,resourcery-logged --baseline resourcery --together`.
// LOG_DEST picks where pino writes, to tell its parts apart: `sync` (the default above), `async`
// (pino's asynchronous destination, in 4 KB batches), `discard` (pino serializes each line, a
// stream drops it: the library's part and pino's, without the write), `noop` (no pino: a logger
// whose methods do nothing, so the library's part alone: the request id and its header, the
// timing, the line's fields).
import pino from 'pino';
import { createApp } from '../../examples/books/dist/app.js';
import { serve } from '../lib/serve.mjs';
import { seededMemoryStore } from './resourcery.mjs';

/** The loggers `LOG_DEST` names. */
const loggers = {
  async: () => pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: false, minLength: 4096 })),
  sync: () => pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: true })),
  discard: () => pino({ level: 'info' }, { write() {} }),
  noop: () => ({ info() {}, warn() {}, error() {} }),
};

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'resourcery-logged',
  description: 'resourcery with a pino line per request (level info, a write per line), no OpenTelemetry SDK',
  optIn: true,
  async start({ books }) {
    const store = await seededMemoryStore(books);
    const logger = loggerOfEnvironment();
    return serve(createApp(store, { logRequests: true, logger }), () => logger.flush?.());
  },
};

/** The logger `LOG_DEST` names (`sync` when unset); resourcery-sql-logged logs with it too. */
export function loggerOfEnvironment() {
  const make = loggers[process.env.LOG_DEST ?? 'sync'];
  if (!make) throw new Error(`LOG_DEST: one of ${Object.keys(loggers).join(', ')}`);
  return make();
}
