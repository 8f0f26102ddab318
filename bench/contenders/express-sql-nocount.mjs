// The SQL baseline without a count: express-sql's app that never counts (no `count(*)`, no
// X-Total-Count, Link without `last`; one row more than the page tells whether `next` exists).
// Timed only in the `index-page-nocount` scenario, where it is the baseline and the library is
// asked `count=false` (see scenarios.mjs).
import { startSqlApp } from './express-sql.mjs';

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'express-sql-nocount',
  description: 'express-sql without X-Total-Count (no count query): the baseline of count=false',
  dbs: ['postgres', 'sqlite'],
  scenarios: ['index-page-nocount'],
  start: (options) => startSqlApp('express-sql-nocount', options, { count: false }),
};
