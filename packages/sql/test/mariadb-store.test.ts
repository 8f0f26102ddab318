import { storeConformanceSuite } from '@resourcery/core/testing';
import { sqlStore } from '@resourcery/sql';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';

if (serverAvailable('mariadb')) {
  storeConformanceSuite('MariaDB', () => droppingTables(sqlStore(SERVERS.mariadb.url)));
}
