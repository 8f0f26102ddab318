import { storeConformanceSuite } from '@resourcery/core/testing';
import { sqlStore } from '@resourcery/sql';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';

if (serverAvailable('postgres')) {
  storeConformanceSuite('PostgreSQL', () => droppingTables(sqlStore(SERVERS.postgres.url)));
}
