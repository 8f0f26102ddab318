import { sqlStore } from '@resourcery/sql';
import { storeConformanceSuite } from '@resourcery/testing/suites';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';

if (serverAvailable('mariadb')) {
  storeConformanceSuite('MariaDB', () => droppingTables(sqlStore(SERVERS.mariadb.url)));
}
