// resourcery-sql through PgBouncer in transaction mode (.ci/pgbouncer.ini, which .ci/run starts
// on 127.0.0.1:6432, or $BENCH_PGBOUNCER_PORT) with `?preparedStatements=false`, as a deployment
// behind a transaction pooler runs it. Its CPU/req counts PgBouncer's process too (from its pid
// file, $BENCH_PGBOUNCER_PID, default /tmp/resourcery-pgbouncer/pgbouncer.pid): what the pooler
// costs is part of what this contender costs. PgBouncer serves only this contender while it is
// loaded (rounds one after the other: not with --together).
import { readFileSync } from 'node:fs';
import { createApp } from '../../examples/books/dist/app.js';
import { librarySqlStore, serveReady } from './resourcery-sql.mjs';
import { unprepared } from './resourcery-sql-unprepared.mjs';

const PORT = process.env.BENCH_PGBOUNCER_PORT ?? '6432';
const PID_FILE = process.env.BENCH_PGBOUNCER_PID ?? '/tmp/resourcery-pgbouncer/pgbouncer.pid';

/** The database's URL through PgBouncer (the same server, host and database), without prepared statements. */
function throughPgBouncer(url) {
  const pooled = new URL(unprepared(url));
  pooled.port = PORT;
  return pooled.href;
}

/** PgBouncer's CPU time so far (µs), 0 when its process cannot be read. */
function pgbouncerCpu() {
  try {
    const pid = readFileSync(PID_FILE, 'latin1').trim();
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'latin1').split(' ')[0]) / 1000;
  } catch {
    return 0;
  }
}

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'resourcery-sql-pgbouncer',
  description:
    'resourcery-sql through PgBouncer (transaction mode) with ?preparedStatements=false; CPU counts PgBouncer too',
  dbs: ['postgres'],
  optIn: true,
  async start(options) {
    const opened = await librarySqlStore('resourcery-sql-pgbouncer', options, throughPgBouncer);
    const app = createApp(opened.store);
    const server = await serveReady(app, () => app.ready(), opened);
    const own = () => {
      const { user, system } = process.cpuUsage();
      return user + system;
    };
    return { ...server, cpu: () => own() + pgbouncerCpu() };
  },
};
