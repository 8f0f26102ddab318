// resourcery.config.ts: what `npx resourcery-sql` reads (TypeScript is loaded through tsx).
import { resourceSchemas } from '@resourcery/core/adapter';
import { resources } from './migrations-resources.js';

export default {
  url: process.env.DATABASE_URL ?? 'sqlite:data/app.sqlite', // or `db`: a Kysely instance
  tablePrefix: '', // as given to sqlStore
  // Every resource of the API: the tables get the foreign keys of their relations, as sqlStore's do.
  schemas: resourceSchemas(resources),
  migrationFolder: 'migrations', // <timestamp>_<name>.mjs or .ts files; the default
};
