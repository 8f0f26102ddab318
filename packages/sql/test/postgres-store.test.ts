import { sqlStore } from '@resourcery/sql';
import { storeConformanceSuite } from '@resourcery/testing/suites';
import { sql } from 'kysely';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';

if (serverAvailable('postgres')) {
  const store = droppingTables(sqlStore(SERVERS.postgres.url));
  storeConformanceSuite('PostgreSQL', () => store, {
    // PostgreSQL estimates counts past their threshold (`count: 'estimated'`), from the statistics ANALYZE makes.
    analyze: async (schema) => {
      await sql`analyze ${sql.table(schema.name)}`.execute(store.db);
    },
  });
}
