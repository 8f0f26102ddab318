import { storeConformanceSuite } from '@resourcery/testing/suites';
import { SERVERS, serverAvailable, suiteStores } from './helpers/databases.js';

if (serverAvailable('mariadb')) {
  storeConformanceSuite('MariaDB', suiteStores(SERVERS.mariadb.url, 'mdb_'));
}
