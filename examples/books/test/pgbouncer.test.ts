// The books example as shipped (createApp) honours the whole HTTP contract on PostgreSQL through
// PgBouncer in transaction mode (.ci/pgbouncer.ini), opened from a URL that says
// `?preparedStatements=false`, as DATABASE_URL would.
import { sqlStore } from '@resourcery/sql';
import { serveHttp } from '@resourcery/testing';
import { httpConformanceSuite } from '@resourcery/testing/suites';
import { droppingTables, SERVERS, serverAvailable } from '../../../packages/sql/test/helpers/databases.js';
import { createApp } from '../src/app.js';

const run = Math.random().toString(36).slice(2, 8);
let started = 0;

if (serverAvailable('pgbouncer')) {
  httpConformanceSuite('books example + PostgreSQL through PgBouncer (transaction mode)', async () => {
    // Each group of the suite gets empty tables: its own prefix, dropped when it closes.
    const tablePrefix = `b${run}_${++started}_`;
    const store = droppingTables(sqlStore(SERVERS.pgbouncer.url, { tablePrefix }), tablePrefix);
    const target = await serveHttp(createApp(store));
    return { baseUrl: target.baseUrl, close: () => target.close().finally(() => store.close()) };
  });
}
