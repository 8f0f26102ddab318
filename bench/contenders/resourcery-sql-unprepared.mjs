// resourcery-sql with `?preparedStatements=false`, straight to PostgreSQL: what the store's
// statements cost without named prepared statements (each one parsed and planned at each run),
// `node bench/run.mjs --db postgres --only resourcery-sql,resourcery-sql-unprepared,resourcery-sql-pgbouncer
// --baseline resourcery-sql` (docs/performance.md, "Through PgBouncer").
import { createApp } from '../../examples/books/dist/app.js';
import { librarySqlStore, serveReady } from './resourcery-sql.mjs';

/** The database's URL with the store's parameter that turns prepared statements off. */
export function unprepared(url) {
  const unpreparedUrl = new URL(url);
  unpreparedUrl.searchParams.set('preparedStatements', 'false');
  return unpreparedUrl.href;
}

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'resourcery-sql-unprepared',
  description: 'resourcery-sql with ?preparedStatements=false, straight to PostgreSQL',
  dbs: ['postgres'],
  optIn: true,
  async start(options) {
    const opened = await librarySqlStore('resourcery-sql-unprepared', options, unprepared);
    const app = createApp(opened.store);
    return serveReady(app, () => app.ready(), opened);
  },
};
