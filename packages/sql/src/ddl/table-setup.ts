import type { CollectionSchema } from '@resourcery/core/store';
import { type Kysely, sql } from 'kysely';
import type { SqlDialectSpec } from '../dialects/dialect.js';
import { keptCountDrift } from '../query/kept-count.js';
import { searchDrift } from '../query/search-drift.js';
import { checksDrift } from './check-constraints.js';
import { copiesMigration, type StoredJoin } from './join-copies.js';
import { createTableSql } from './schema-sql.js';
import { keysDrift, tableDrift } from './table-drift.js';

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

/**
 * Makes sure a collection's table exists: creates it (with its indexes and constraints) when it
 * is missing and `create` allows it; refuses an existing table that lacks a column for an
 * attribute, whose columns do not match their declarations, that lacks a unique index, a
 * foreign key or an index the store would have created, or whose CHECKs do not list exactly the
 * declared values of an attribute (see `checksDrift`). An existing table is never altered, so
 * no data is ever dropped or rewritten.
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
  const { copies } = schema as StoredJoin;
  if (copies && missing.length > 0 && missing.every((field) => copies.fields.includes(field))) {
    throw new Error(
      `Table "${table}" has no column for ${missing.join(', ')}: the store keeps on each join row a copy of the ` +
        `${copies.fields.join(' and ')} of its ${copies.owner} record (docs/many-to-many.md, "The join table"), and never ` +
        `alters an existing table. Add them with a migration: ${copiesMigration(schema, dialect, options.tablePrefix).join('; ')}`,
    );
  }
  if (missing.length > 0) {
    throw new Error(
      `Table "${table}" has no column for ${missing.join(', ')}; the store never alters an existing table, so add ` +
        `the column${missing.length > 1 ? 's' : ''} with a migration (schemaSql() shows the types it would use)`,
    );
  }
  const keys = await dialect.describeKeys(db, table);
  different.push(
    ...keysDrift(schema, keys, dialect, options.tablePrefix),
    ...checksDrift(schema, keys.checks, dialect, options.tablePrefix),
    ...(await searchDrift(db, schema, table, dialect, { columns, keys })),
    ...(await keptCountDrift(db, schema, table, dialect)),
  );
  if (different.length > 0) {
    throw new Error(
      `Table "${table}" does not match the declaration of ${schema.name}: ${different.join('; ')}. The store never ` +
        'alters an existing table: change it with a migration (schemaSql() shows the statements it would use)',
    );
  }
}
