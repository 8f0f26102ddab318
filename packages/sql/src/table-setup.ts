import type { CollectionSchema } from '@resourcery/core/store';
import { type Kysely, sql } from 'kysely';
import type { SqlDialectSpec } from './dialects/dialect.js';
import { createTableSql } from './schema-sql.js';

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
type Db = Kysely<any>;

async function existingColumns(db: Db, table: string, dialect: SqlDialectSpec): Promise<Set<string>> {
  const { rows } = await dialect.columnsQuery(table).execute(db);
  return new Set(rows.map((row) => row.name));
}

async function createTable(db: Db, schema: CollectionSchema, dialect: SqlDialectSpec, tablePrefix: string) {
  const statements = createTableSql(schema, dialect.name, { tablePrefix });
  // With transactional DDL the table appears with all its indexes or not at all.
  if (dialect.supportsTransactionalDdl) {
    await db.transaction().execute(async (tx) => {
      for (const statement of statements) await sql.raw(statement).execute(tx);
    });
  } else {
    for (const statement of statements) await sql.raw(statement).execute(db);
  }
}

/**
 * Makes sure a collection's table exists: creates it (with its indexes) when it is missing and
 * `create` allows it; checks that an existing table has a column for every attribute. An
 * existing table is never altered, so no data is ever dropped or rewritten.
 *
 * @example
 * ```ts
 * await ensureTable(db, schema, postgres, { tablePrefix: 'api_', create: true });
 * ```
 */
export async function ensureTable(
  db: Db,
  schema: CollectionSchema,
  dialect: SqlDialectSpec,
  options: { tablePrefix: string; create: boolean },
): Promise<void> {
  const table = `${options.tablePrefix}${schema.name}`;
  let columns = await existingColumns(db, table, dialect);
  if (columns.size === 0) {
    if (!options.create) {
      throw new Error(`Table "${table}" does not exist: create it (schemaSql() prints its DDL) or set createTables`);
    }
    try {
      await createTable(db, schema, dialect, options.tablePrefix);
    } catch (error) {
      // Another process may have created it at the same moment; that is as good.
      if ((await existingColumns(db, table, dialect)).size === 0) throw error;
    }
    columns = await existingColumns(db, table, dialect);
  }
  const missing = schema.attributes.filter((attribute) => !columns.has(attribute.name)).map((a) => a.name);
  if (missing.length > 0) {
    throw new Error(
      `Table "${table}" has no column for ${missing.join(', ')}; the store never alters an existing table, so add ` +
        `the column${missing.length > 1 ? 's' : ''} with a migration (schemaSql() shows the types it would use)`,
    );
  }
}
