// Live events on several instances (docs/live.md, "Several processes"): every instance serves the
// same API on one database; a change made through any of them reaches the streams of all of them.
// Nothing else to set up: the change log is a table of that database, and PostgreSQL's
// LISTEN/NOTIFY (or a poll, on the other databases) wakes the other instances.
import { sqlStore } from '@resourcery/sql';
import { tasksListener } from './live.js';

/** One instance (one process, in production) of the tasks API on the database at `databaseUrl`. */
export function instance(databaseUrl: string, secret: string) {
  return tasksListener(sqlStore(databaseUrl), secret);
}
