import { storeConformanceSuite } from '@resourcery/testing/suites';
import { sql } from 'kysely';
import { SERVERS, serverAvailable, suiteStores } from './helpers/databases.js';

if (serverAvailable('postgres')) {
  const stores = suiteStores(SERVERS.postgres.url, 'pgs_');
  storeConformanceSuite('PostgreSQL', stores, {
    // PostgreSQL estimates counts past their threshold (`count: 'estimated'`), from the statistics ANALYZE makes.
    analyze: async (schema) => {
      await sql`analyze ${sql.table(`pgs_${schema.name}`)}`.execute(stores().db);
    },
  });
}
