import type { CollectionSchema } from '@resourcery/core/store';
import { type Kysely, sql } from 'kysely';
import { constraintName } from '../ddl/names.js';
import type { CatalogColumn, CatalogKeys, SqlDialectSpec } from '../dialects/dialect.js';
import { ftsTable, usesFts, wordsColumn, wordsColumnType } from './search-sql.js';
import { tenantWordsDrift, usesTenantWords } from './search-tenant-words.js';
import { wordsTableDrift } from './search-words-table.js';

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
type Db = Kysely<any>;

/**
 * What an existing table lacks of its search: the words columns (of their type) and their index
 * (PostgreSQL: a GIN index on each, or under tenancy the words by tenant; SQLite: the FTS5 table
 * and its three triggers; MySQL/MariaDB: the words table). `found`: the table's columns and keys
 * as the drift check has already read them from the catalog.
 *
 * @example
 * ```ts
 * await searchDrift(db, schema, 'issues', postgres, { columns, keys }); // ['no column "title__words" (tsvector) for the search of title']
 * ```
 */
export async function searchDrift(
  db: Db,
  schema: CollectionSchema,
  table: string,
  dialect: SqlDialectSpec,
  found: { readonly columns: readonly CatalogColumn[]; readonly keys: CatalogKeys },
): Promise<string[]> {
  const fields = schema.search ?? [];
  if (fields.length === 0) return [];
  const drift: string[] = [];
  const columns = new Map(found.columns.map((column) => [column.name, column]));
  const family = dialect.name === 'postgres' ? /^tsvector$/ : dialect.typeFamilies.string;
  for (const field of fields) {
    const column = columns.get(wordsColumn(field));
    if (!column || !family.test(column.type)) {
      drift.push(`no column "${wordsColumn(field)}" (${wordsColumnType(dialect)}) for the search of ${field}`);
    }
  }
  if (usesTenantWords(schema, dialect)) drift.push(...tenantWordsDrift(schema, table, dialect, found));
  else if (dialect.name === 'postgres') {
    for (const column of fields.map(wordsColumn)) {
      if (!found.keys.indexes.some((index) => index.columns[0]?.column === column)) {
        drift.push(`no GIN index on "${column}" (the store names it "${constraintName(table, [column], 'idx')}")`);
      }
    }
  } else if (usesFts(schema, dialect)) {
    const fts = ftsTable(table);
    const wanted = [fts, `${fts}_insert`, `${fts}_delete`, `${fts}_update`];
    const { rows } = await sql<{
      name: string;
    }>`select name from sqlite_master where name in (${sql.join(wanted)})`.execute(db);
    const found = new Set(rows.map((row) => row.name));
    for (const name of wanted)
      if (!found.has(name)) drift.push(`no ${name === fts ? 'FTS5 table' : 'trigger'} "${name}" for the search`);
  }
  drift.push(...(await wordsTableDrift(db, schema, table, dialect)));
  return drift;
}
