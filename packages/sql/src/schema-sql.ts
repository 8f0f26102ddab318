import type { AttributeSchema, CollectionSchema } from '@resourcery/core/store';
import { dialectNamed, type SqlDialect, type SqlDialectSpec } from './dialects/index.js';

/** Options of {@link createTableSql} and {@link schemaSql}. */
export interface SchemaSqlOptions {
  /** Prefix of every table name (`app_` makes `books` the table `app_books`). Default: none. */
  readonly tablePrefix?: string;
}

/**
 * Longest index name: PostgreSQL keeps 63 bytes, MySQL 64. The same limit everywhere gives an
 * index the same name in every database.
 */
const MAX_IDENTIFIER = 63;

/** 32-bit FNV-1a, to keep shortened index names unique. */
function hash(text: string): string {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 0x01000193);
  return (value >>> 0).toString(16).padStart(8, '0');
}

/**
 * `<table>_<field>_idx`, shortened with a hash when it would exceed the identifier limit.
 *
 * @example
 * ```ts
 * indexName('books', 'name'); // 'books_name_idx'
 * ```
 */
export function indexName(table: string, field: string): string {
  const name = `${table}_${field}_idx`;
  return name.length <= MAX_IDENTIFIER ? name : `${name.slice(0, MAX_IDENTIFIER - 13)}_${hash(name)}_idx`;
}

/** The indexed key: the field then the id, so that the id tie-breaker of every sort is in the index. */
function indexKey(attribute: AttributeSchema, dialect: SqlDialectSpec): string {
  // Where nulls sort last ascending, the store orders them first, as memory does, and an index
  // built the same way serves both directions.
  const nulls = attribute.nullable && !dialect.nullsSortFirst ? ' NULLS FIRST' : '';
  return `${dialect.indexColumn(attribute)}${nulls}, ${dialect.quote('id')}`;
}

/** The attributes of `schema.indexed` that get an index (all but `id`, which is the primary key). */
function indexedAttributes(schema: CollectionSchema): AttributeSchema[] {
  return [...new Set(schema.indexed)].flatMap((field) => {
    const attribute = field === 'id' ? undefined : schema.attributes.find((candidate) => candidate.name === field);
    return attribute ? [attribute] : [];
  });
}

/**
 * The SQL statements that create one collection's table and its indexes if they do not exist:
 * typed columns, `NOT NULL` for required attributes, binary string collation, an id that is
 * never reused, and an index `(field, id)` for every field in `schema.indexed`. Nothing in them
 * drops or changes an existing table.
 *
 * @example
 * ```ts
 * for (const statement of createTableSql(compiledResource(books).schema, 'postgres')) console.log(`${statement};`);
 * ```
 */
export function createTableSql(
  schema: CollectionSchema,
  dialect: SqlDialect,
  options: SchemaSqlOptions = {},
): string[] {
  const spec = dialectNamed(dialect);
  const table = `${options.tablePrefix ?? ''}${schema.name}`;
  const columns = [`${spec.quote('id')} ${spec.idColumnType}`];
  for (const attribute of schema.attributes) {
    if (attribute.name === 'id') continue;
    columns.push(`${spec.quote(attribute.name)} ${spec.columnType(attribute)}${attribute.nullable ? '' : ' NOT NULL'}`);
  }
  const indexes = indexedAttributes(schema).map((attribute) => ({
    name: indexName(table, attribute.name),
    key: indexKey(attribute, spec),
  }));
  return spec.createTable(table, columns, indexes);
}

/**
 * The DDL of several collections as one SQL script, for teams that run their own migrations
 * (write it to a migration file, review it, apply it with your tool; then pass
 * `createTables: false` to `sqlStore`).
 *
 * @example
 * ```ts
 * import { compiledResource } from '@resourcery/core/store';
 * import { schemaSql } from '@resourcery/sql';
 *
 * writeFileSync('migrations/001_books.sql', schemaSql([compiledResource(books).schema], 'mariadb'));
 * ```
 */
export function schemaSql(
  schemas: readonly CollectionSchema[],
  dialect: SqlDialect,
  options: SchemaSqlOptions = {},
): string {
  return schemas.flatMap((schema) => createTableSql(schema, dialect, options).map((sql) => `${sql};\n`)).join('\n');
}
