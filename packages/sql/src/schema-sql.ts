import type { AttributeSchema, CollectionSchema } from '@resourcery/core';
import { familyOf, quoteIdentifier, type SqlDialect } from './dialect.js';

/** Options of {@link createTableSql} and {@link schemaSql}. */
export interface SchemaSqlOptions {
  /** Prefix of every table name (`app_` makes `books` the table `app_books`). Default: none. */
  readonly tablePrefix?: string;
}

/**
 * Longest VARCHAR that MySQL/MariaDB can index whole together with the id: InnoDB keys hold
 * at most 3072 bytes, utf8mb4 takes up to 4 bytes a character, and the BIGINT id takes 8.
 */
const MYSQL_INDEXABLE_CHARS = 765;
/** Characters of a MySQL TEXT column that its index keeps (TEXT can only be indexed by prefix). */
const MYSQL_PREFIX_CHARS = 255;
/** Longest identifier PostgreSQL keeps (63 bytes); MySQL allows 64. */
const MAX_IDENTIFIER = 63;

/** Binary, code point order, no trailing-space padding: equality and order as in memory. */
function mysqlCollation(dialect: SqlDialect): string {
  return dialect === 'mariadb' ? 'utf8mb4_nopad_bin' : 'utf8mb4_0900_bin';
}

function stringType(attribute: AttributeSchema, dialect: SqlDialect): string {
  const length = attribute.maxLength === undefined ? undefined : Math.max(1, Math.floor(attribute.maxLength));
  switch (familyOf(dialect)) {
    case 'sqlite':
      return 'TEXT'; // SQLite's default BINARY collation compares UTF-8 bytes: code point order
    case 'postgres':
      return `${length === undefined ? 'TEXT' : `VARCHAR(${length})`} COLLATE "C"`;
    case 'mysql': {
      const type = length !== undefined && length <= MYSQL_INDEXABLE_CHARS ? `VARCHAR(${length})` : 'MEDIUMTEXT';
      return `${type} CHARACTER SET utf8mb4 COLLATE ${mysqlCollation(dialect)}`;
    }
  }
}

function columnType(attribute: AttributeSchema, dialect: SqlDialect): string {
  const family = familyOf(dialect);
  switch (attribute.type) {
    case 'string':
      return stringType(attribute, dialect);
    case 'integer':
      return family === 'sqlite' ? 'INTEGER' : 'BIGINT';
    case 'number':
      return family === 'sqlite' ? 'REAL' : family === 'postgres' ? 'DOUBLE PRECISION' : 'DOUBLE';
    case 'boolean':
      return family === 'sqlite' ? `INTEGER CHECK (${quoteIdentifier(attribute.name, dialect)} IN (0, 1))` : 'BOOLEAN';
  }
}

/** The id column: assigned by the database, increasing, never reused (even after deletes). */
function idColumn(dialect: SqlDialect): string {
  const id = quoteIdentifier('id', dialect);
  switch (familyOf(dialect)) {
    // Without AUTOINCREMENT, SQLite reuses the highest id after it is deleted.
    case 'sqlite':
      return `${id} INTEGER PRIMARY KEY AUTOINCREMENT`;
    case 'postgres':
      return `${id} BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY`;
    case 'mysql':
      return `${id} BIGINT NOT NULL AUTO_INCREMENT`;
  }
}

/** 32-bit FNV-1a, to keep shortened index names unique. */
function hash(text: string): string {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 0x01000193);
  return (value >>> 0).toString(16).padStart(8, '0');
}

/** `<table>_<field>_idx`, shortened with a hash when it would exceed the identifier limit. */
export function indexName(table: string, field: string): string {
  const name = `${table}_${field}_idx`;
  return name.length <= MAX_IDENTIFIER ? name : `${name.slice(0, MAX_IDENTIFIER - 13)}_${hash(name)}_idx`;
}

/** The indexed key: the field then the id, so that the id tie-breaker of every sort is in the index. */
function indexKey(schema: CollectionSchema, field: string, dialect: SqlDialect): string {
  const attribute = schema.attributes.find((candidate) => candidate.name === field);
  let column = quoteIdentifier(field, dialect);
  const family = familyOf(dialect);
  if (family === 'mysql' && attribute?.type === 'string' && columnTypeIsText(attribute)) {
    column += `(${MYSQL_PREFIX_CHARS})`;
  }
  // PostgreSQL sorts nulls last ascending; the store orders them first, as memory does, and an
  // index built the same way serves both directions.
  if (family === 'postgres' && attribute?.nullable) column += ' NULLS FIRST';
  return `${column}, ${quoteIdentifier('id', dialect)}`;
}

function columnTypeIsText(attribute: AttributeSchema): boolean {
  return attribute.maxLength === undefined || attribute.maxLength > MYSQL_INDEXABLE_CHARS;
}

function indexedFields(schema: CollectionSchema): string[] {
  const names = new Set(schema.attributes.map((attribute) => attribute.name));
  return [...new Set(schema.indexed)].filter((field) => field !== 'id' && names.has(field));
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
  const table = `${options.tablePrefix ?? ''}${schema.name}`;
  const q = (name: string) => quoteIdentifier(name, dialect);
  const columns = [idColumn(dialect)];
  for (const attribute of schema.attributes) {
    if (attribute.name === 'id') continue;
    columns.push(`${q(attribute.name)} ${columnType(attribute, dialect)}${attribute.nullable ? '' : ' NOT NULL'}`);
  }
  const indexes = indexedFields(schema).map((field) => ({
    name: indexName(table, field),
    key: indexKey(schema, field, dialect),
  }));
  if (familyOf(dialect) === 'mysql') {
    // MySQL has no CREATE INDEX IF NOT EXISTS; keys inside CREATE TABLE make one atomic statement.
    const keys = [`PRIMARY KEY (${q('id')})`, ...indexes.map((index) => `KEY ${q(index.name)} (${index.key})`)];
    const collation = mysqlCollation(dialect);
    return [
      `CREATE TABLE IF NOT EXISTS ${q(table)} (\n  ${[...columns, ...keys].join(',\n  ')}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=${collation}`,
    ];
  }
  return [
    `CREATE TABLE IF NOT EXISTS ${q(table)} (\n  ${columns.join(',\n  ')}\n)`,
    ...indexes.map((index) => `CREATE INDEX IF NOT EXISTS ${q(index.name)} ON ${q(table)} (${index.key})`),
  ];
}

/**
 * The DDL of several collections as one SQL script, for teams that run their own migrations
 * (write it to a migration file, review it, apply it with your tool; then pass
 * `createTables: false` to `sqlStore`).
 *
 * @example
 * ```ts
 * import { compiledResource } from '@resourcery/core';
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
