import type { AttributeSchema, CollectionSchema } from '@resourcery/core/store';
import { type Kysely, sql } from 'kysely';
import type { CatalogColumn, SqlDialectSpec } from './dialects/dialect.js';
import { createTableSql } from './schema-sql.js';

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
type Db = Kysely<any>;

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

/** How a column differs from the attribute it holds, if it does. */
function columnDrift(attribute: AttributeSchema, column: CatalogColumn, dialect: SqlDialectSpec): string | undefined {
  const { name, type } = attribute;
  if (!dialect.typeFamilies[type].test(column.type)) {
    return `column "${name}" is ${column.type}, which cannot hold the declared ${type}`;
  }
  const scale = attribute.scale ?? 0;
  if (type === 'decimal' && column.scale !== undefined && column.scale !== scale) {
    return `column "${name}" keeps ${column.scale} decimal places where ${scale} are declared`;
  }
  if (name === 'id' || column.nullable === attribute.nullable) return undefined;
  return attribute.nullable
    ? `column "${name}" is NOT NULL but ${name} is declared nullable`
    : `column "${name}" accepts NULL but ${name} is declared required`;
}

/**
 * What keeps an existing table from holding a collection's records as the store expects: the
 * columns it lacks, columns of another type family (text for a decimal…), another number of
 * decimal places, another nullability. Empty when the table fits (extra columns are fine).
 *
 * @example
 * ```ts
 * tableDrift(schema, await postgres.describeColumns(db, 'books'), postgres); // ['column "price" is text, …']
 * ```
 */
export function tableDrift(
  schema: CollectionSchema,
  columns: readonly CatalogColumn[],
  dialect: SqlDialectSpec,
): { missing: string[]; different: string[] } {
  const byName = new Map(columns.map((column) => [column.name, column]));
  const missing: string[] = [];
  const different: string[] = [];
  for (const attribute of schema.attributes) {
    const column = byName.get(attribute.name);
    if (!column) missing.push(attribute.name);
    else {
      const drift = columnDrift(attribute, column, dialect);
      if (drift) different.push(drift);
    }
  }
  return { missing, different };
}

/**
 * Makes sure a collection's table exists: creates it (with its indexes and constraints) when it
 * is missing and `create` allows it; refuses an existing table that lacks a column for an
 * attribute or whose columns do not match their declarations. An existing table is never
 * altered, so no data is ever dropped or rewritten.
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
  let columns = await dialect.describeColumns(db, table);
  if (columns.length === 0) {
    if (!options.create) {
      throw new Error(
        `Table "${table}" does not exist: create it (migrationsFor() runs its DDL, schemaSql() prints it) or set createTables`,
      );
    }
    try {
      await createTable(db, schema, dialect, options.tablePrefix);
    } catch (error) {
      // Another process may have created it at the same moment; that is as good.
      if ((await dialect.describeColumns(db, table)).length === 0) throw error;
    }
    columns = await dialect.describeColumns(db, table);
  }
  const { missing, different } = tableDrift(schema, columns, dialect);
  if (missing.length > 0) {
    throw new Error(
      `Table "${table}" has no column for ${missing.join(', ')}; the store never alters an existing table, so add ` +
        `the column${missing.length > 1 ? 's' : ''} with a migration (schemaSql() shows the types it would use)`,
    );
  }
  if (different.length > 0) {
    throw new Error(
      `Table "${table}" does not match the declaration of ${schema.name}: ${different.join('; ')}. The store never ` +
        'alters an existing table: change it with a migration (schemaSql() shows the types it would use)',
    );
  }
}
