import { sqlStore } from '@resourcery/sql';
import { storeConformanceSuite } from '@resourcery/testing/suites';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';

if (serverAvailable('postgres')) {
  storeConformanceSuite('PostgreSQL', () => droppingTables(sqlStore(SERVERS.postgres.url)));
}
