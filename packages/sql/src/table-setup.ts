import type { CollectionSchema } from '@resourcery/core';
import { type Kysely, sql } from 'kysely';
import { familyOf, type SqlDialect } from './dialect.js';
import { createTableSql } from './schema-sql.js';

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
type Db = Kysely<any>;

/** Tells MySQL from MariaDB, which differ in the name of their no-pad binary collation. */
export async function serverDialect(db: Db, dialect: SqlDialect): Promise<SqlDialect> {
  if (familyOf(dialect) !== 'mysql') return dialect;
  const { rows } = await sql<{ version: string }>`select version() as version`.execute(db);
  return /mariadb/i.test(rows[0]?.version ?? '') ? 'mariadb' : 'mysql';
}

async function existingColumns(db: Db, table: string, dialect: SqlDialect): Promise<Set<string>> {
  const query = {
    sqlite: sql<{ name: string }>`select name from pragma_table_info(${table})`,
    postgres: sql<{ name: string }>`select column_name as name from information_schema.columns
      where table_schema = current_schema() and table_name = ${table}`,
    mysql: sql<{ name: string }>`select column_name as name from information_schema.columns
      where table_schema = database() and table_name = ${table}`,
  }[familyOf(dialect)];
  const { rows } = await query.execute(db);
  return new Set(rows.map((row) => row.name));
}

async function createTable(db: Db, schema: CollectionSchema, dialect: SqlDialect, tablePrefix: string): Promise<void> {
  const statements = createTableSql(schema, dialect, { tablePrefix });
  // PostgreSQL and SQLite run DDL in transactions: the table appears with all its indexes or not at all.
  if (familyOf(dialect) === 'mysql') {
    for (const statement of statements) await sql.raw(statement).execute(db);
  } else {
    await db.transaction().execute(async (tx) => {
      for (const statement of statements) await sql.raw(statement).execute(tx);
    });
  }
}

/**
 * Makes sure a collection's table exists: creates it (with its indexes) when it is missing and
 * `create` allows it; checks that an existing table has a column for every attribute. An
 * existing table is never altered, so no data is ever dropped or rewritten.
 */
export async function ensureTable(
  db: Db,
  schema: CollectionSchema,
  dialect: SqlDialect,
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
