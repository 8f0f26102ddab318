import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import {
  CREATE_TABLES_MIGRATION,
  migrationStatus,
  migrationsFor,
  runMigrations,
  sqlMigration,
  sqlStore,
} from '@resourcery/sql';
import { librarySchemas } from '@resourcery/testing/suites';
import type { Migration } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/migrate/cli-commands.js';
import { testDatabases } from './helpers/databases.js';
import { dropMigrationTables } from './helpers/migrated-tables.js';

const folder = mkdtempSync(join(tmpdir(), 'resourcery-migrations-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const schemas = librarySchemas('mg');
const declared = [schemas.books, schemas.authors, schemas.reviews]; // in any order: referenced tables go first

/** A later migration of the application's own: a column the declarations do not have (yet). */
function addNote(tablePrefix: string): Migration {
  const table = `${tablePrefix}mg_authors`;
  return {
    up: (db) => db.schema.alterTable(table).addColumn('note', 'text').execute(),
    down: (db) => db.schema.alterTable(table).dropColumn('note').execute(),
  };
}

for (const database of testDatabases(folder)) {
  describe(database.label, () => {
    it("runs the declarations' tables and later migrations with Kysely's Migrator, and undoes them", async () => {
      const { store, tablePrefix } = database.open({ createTables: false });
      for (const schema of declared) store.collection(schema);
      const provider = migrationsFor(declared, {
        tablePrefix,
        migrations: { '20240601120000_add_note': addNote(tablePrefix) },
      });
      try {
        await expect(store.init(declared)).rejects.toThrow(/does not exist/);
        const results = await runMigrations(store.db, provider, { tablePrefix });
        expect(results.map((result) => [result.migrationName, result.status])).toEqual([
          [CREATE_TABLES_MIGRATION, 'Success'],
          ['20240601120000_add_note', 'Success'],
        ]);
        await store.init(declared); // the tables match the declarations (an extra column is fine)
        const author = await store.collection(schemas.authors).create({ name: 'Le Guin' });
        expect(author).toEqual({ id: 1, name: 'Le Guin', country: null, born: null });
        expect(await runMigrations(store.db, provider, { tablePrefix })).toEqual([]);
        const status = await migrationStatus(store.db, provider, { tablePrefix });
        expect(status.every((migration) => migration.executedAt instanceof Date)).toBe(true);

        await runMigrations(store.db, provider, { tablePrefix, to: 'down' });
        const columns = await store.db.introspection.getTables();
        const authors = columns.find((table) => table.name === `${tablePrefix}mg_authors`);
        expect(authors?.columns.map((column) => column.name)).not.toContain('note');
        await runMigrations(store.db, provider, { tablePrefix, to: 'down' });
        const left = (await store.db.introspection.getTables()).map((table) => table.name);
        expect(left.filter((name) => name.startsWith(`${tablePrefix}mg_`))).toEqual([]);
      } finally {
        await dropMigrationTables(store, tablePrefix);
        await store.close();
      }
    });

    it("creates the change log's tables when a schema is live, as init would", async () => {
      const { store, tablePrefix } = database.open({ createTables: false });
      const live = { ...schemas.authors, live: true };
      const provider = migrationsFor([live], { tablePrefix });
      try {
        store.collection(live);
        await expect(store.init([live])).rejects.toThrow(/does not exist/);
        await runMigrations(store.db, provider, { tablePrefix });
        await store.init([live]); // the tables match: the log's included
        const log = store.changes();
        const start = await log.head();
        const author = await store.collection(live).create({ name: 'Le Guin' });
        const changes = await log.read(start, 10);
        expect(changes).toEqual([expect.objectContaining({ kind: 'created', id: author.id, after: author })]);
        await runMigrations(store.db, provider, { tablePrefix, to: 'down' });
        const left = (await store.db.introspection.getTables()).map((table) => table.name);
        expect(left.filter((name) => name.startsWith(`${tablePrefix}resourcery_changes`))).toEqual([]);
      } finally {
        await dropMigrationTables(store, tablePrefix);
        await store.close();
      }
    });

    it('names the migration that failed, and keeps the ones before it', async () => {
      const { store, tablePrefix } = database.open({ createTables: false });
      const provider = migrationsFor([schemas.authors], {
        tablePrefix,
        migrations: {
          '20240601120000_note': addNote(tablePrefix),
          '20240602120000_only_elsewhere': sqlMigration({ oracle: [] } as never),
        },
      });
      try {
        await expect(runMigrations(store.db, provider, { tablePrefix })).rejects.toThrow(
          /Migration "20240602120000_only_elsewhere" failed: This migration has no SQL for (sqlite|postgres|mariadb)/,
        );
        const status = await migrationStatus(store.db, provider, { tablePrefix });
        expect(status.map((migration) => migration.executedAt !== undefined)).toEqual(
          // PostgreSQL runs them in one transaction: all or nothing.
          database.label === 'PostgreSQL' ? [false, false, false] : [true, true, false],
        );
      } finally {
        for (const table of ['mg_authors'])
          await store.db.schema.dropTable(`${tablePrefix}${table}`).ifExists().execute();
        await dropMigrationTables(store, tablePrefix);
        await store.close();
      }
    });
  });
}

describe('migration names', () => {
  it('must start with a timestamp', () => {
    expect(() => migrationsFor([], { migrations: { add_isbn: addNote('') } })).toThrow(
      'Migration "add_isbn": start its name with a timestamp, e.g. 20240601120000_add_isbn',
    );
  });
});

describe('the resourcery-sql command', () => {
  async function run(cwd: string, ...args: string[]): Promise<string> {
    const lines: string[] = [];
    await runCli(args, { cwd, log: (line) => lines.push(line) });
    return lines.join('\n');
  }

  it('freezes the DDL of the declarations into a migration file, then migrates with the folder', async () => {
    const cwd = mkdtempSync(join(folder, 'cli-'));
    const config = { url: `sqlite:${join(cwd, 'app.sqlite')}`, schemas: [schemas.books, schemas.authors] };
    writeFileSync(
      join(cwd, 'resourcery.config.mjs'),
      `export default { ...${JSON.stringify(config)}, migrationFolder: 'migrations' };\n`,
    );
    expect(await run(cwd, 'generate', 'create_tables')).toMatch(/Wrote .*\/\d{14}_create_tables\.mjs/);
    const [file] = readdirSync(join(cwd, 'migrations'));
    const text = readFileSync(join(cwd, 'migrations', file as string), 'utf8');
    expect(text).toContain("import { sqlMigration } from '@resourcery/sql';");
    const statements = JSON.parse(text.slice(text.indexOf('sqlMigration(') + 13, text.lastIndexOf(');')));
    expect(Object.keys(statements)).toEqual(['sqlite', 'postgres', 'mysql', 'mariadb']);
    expect(statements.postgres[0]).toMatch(/^CREATE TABLE IF NOT EXISTS "mg_authors"/);

    expect(await run(cwd, 'status')).toMatch(/pending\s+\d{14}_create_tables/);
    expect(await run(cwd, 'migrate')).toMatch(/up\s+\d{14}_create_tables/);
    expect(await run(cwd, 'migrate')).toMatch(/Nothing to do/);
    const store = sqlStore(config.url, { createTables: false });
    try {
      await store.init([schemas.authors, schemas.books]);
    } finally {
      await store.close();
    }
    expect(await run(cwd, 'sql', 'mariadb')).toContain('CREATE TABLE IF NOT EXISTS `mg_books`');
    await expect(run(cwd, 'frobnicate')).rejects.toThrow('Unknown command "frobnicate"');
  });

  it("is the package's bin", async () => {
    const manifest = JSON.parse(readFileSync(resolve(import.meta.dirname, '../package.json'), 'utf8'));
    expect(manifest.bin).toEqual({ 'resourcery-sql': './dist/cli.js' });
    const tsx = resolve(import.meta.dirname, '../../../node_modules/.bin/tsx');
    const cli = resolve(import.meta.dirname, '../src/cli.ts');
    const { stdout } = await promisify(execFile)(tsx, [cli, '--help'], { cwd: folder });
    expect(stdout).toMatch(/^Usage: resourcery-sql <command>/);
  });
});
