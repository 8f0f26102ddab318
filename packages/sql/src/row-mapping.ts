import type { AttributeSchema, CollectionSchema, Scalar, StoredRecord } from '@resourcery/core/store';
import type { SqlDialectSpec } from './dialects/dialect.js';

/**
 * A column value as the record holds it. Drivers answer `BIGINT` as strings (pg) or bigints,
 * and booleans as 0/1 (SQLite, MySQL); records carry JS numbers and booleans, as in memory.
 */
function fromColumn(value: unknown, attribute: AttributeSchema): Scalar {
  if (value === null || value === undefined) return null;
  switch (attribute.type) {
    case 'integer':
    case 'number':
      return typeof value === 'number' ? value : Number(value);
    case 'boolean':
      return value === true || value === 1 || value === '1' || value === 1n;
    case 'string':
      return typeof value === 'string' ? value : String(value);
  }
}

/**
 * Converts a database row to a record with every attribute of the schema.
 *
 * @example
 * ```ts
 * toRecord({ id: '1', name: 'Dune', available: 1 }, schema); // { id: 1, name: 'Dune', available: true }
 * ```
 */
export function toRecord(row: Record<string, unknown>, schema: CollectionSchema): StoredRecord {
  const record: Record<string, Scalar> = {};
  for (const attribute of schema.attributes) record[attribute.name] = fromColumn(row[attribute.name], attribute);
  return record as StoredRecord;
}

/**
 * A value as a query parameter: booleans become 1 and 0 where the dialect stores them so (SQLite,
 * whose driver binds no booleans, and MySQL).
 *
 * @example
 * ```ts
 * toParameter(true, sqlite); // 1
 * ```
 */
export function toParameter(value: Scalar, dialect: SqlDialectSpec): unknown {
  if (typeof value === 'boolean' && !dialect.nativeBooleans) return value ? 1 : 0;
  return value;
}

/**
 * The columns to write from a create or update: only attributes of the schema (never `id`),
 * only those given. Column names therefore always come from the declaration.
 *
 * @example
 * ```ts
 * columnValues({ name: 'Dune', available: true }, schema, sqlite); // { name: 'Dune', available: 1 }
 * ```
 */
export function columnValues(
  values: Readonly<Partial<StoredRecord>>,
  schema: CollectionSchema,
  dialect: SqlDialectSpec,
): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const attribute of schema.attributes) {
    const value = values[attribute.name];
    if (attribute.name === 'id' || value === undefined) continue;
    columns[attribute.name] = toParameter(value, dialect);
  }
  return columns;
}
