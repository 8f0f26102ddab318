#!/usr/bin/env node
// `resourcery-sql`: runs a project's migrations with Kysely's Migrator, and freezes the DDL of its
// declarations into a migration file. Reads `resourcery.config.mjs` (or .js, .ts, .mts, or
// `--config <file>`; TypeScript through tsx when it is installed):
//
//   export default {
//     url: process.env.DATABASE_URL,           // or `db`: a Kysely instance
//     tablePrefix: '',                         // as given to sqlStore
//     schemas: resourceSchemas([authors, books]), // from @resourcery/core/adapter: foreign keys included
//     migrationFolder: 'migrations',           // files named `<timestamp>_<name>.mjs` (or .ts); the default
//     migrations: { '20240601120000_add_isbn': { up, down } }, // and/or in code
//   };
import { runCli } from './migrate/cli-commands.js';

runCli(process.argv.slice(2), { cwd: process.cwd(), log: (line) => console.log(line) }).catch((error: unknown) => {
  console.error(`resourcery-sql: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
