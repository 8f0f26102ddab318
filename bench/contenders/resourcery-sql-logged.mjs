// resourcery-sql with the request log of resourcery-logged (pino at `info`, a write per line
// into /dev/null unless LOG_DEST says otherwise): what the log line costs a request that goes to
// a database, `node bench/run.mjs --db sqlite --only resourcery-sql,resourcery-sql-logged
// --baseline resourcery-sql --together`.
import { createApp } from '../../examples/books/dist/app.js';
import { loggerOfEnvironment } from './resourcery-logged.mjs';
import { librarySqlStore, serveReady } from './resourcery-sql.mjs';

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'resourcery-sql-logged',
  description: 'resourcery-sql with a pino line per request (level info, a write per line)',
  dbs: ['postgres', 'sqlite'],
  optIn: true,
  async start(options) {
    const opened = await librarySqlStore('resourcery-sql-logged', options);
    const logger = loggerOfEnvironment();
    const app = createApp(opened.store, { logRequests: true, logger });
    return serveReady(app, () => app.ready(), opened);
  },
};
