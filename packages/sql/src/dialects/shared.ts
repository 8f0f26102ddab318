import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { CatalogColumn, SqlDialectSpec } from './dialect.js';

/**
 * Quotes an identifier the standard way (SQLite, PostgreSQL): in double quotes, doubling any
 * double quote inside it.
 *
 * @example
 * ```ts
 * doubleQuote('we"ird'); // '"we""ird"'
 * ```
 */
export function doubleQuote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/**
 * The SQL text of the dialects that follow the standard (SQLite, PostgreSQL): identifiers in
 * double quotes, index keys of plain columns, and `CREATE TABLE IF NOT EXISTS` followed by one
 * `CREATE INDEX IF NOT EXISTS` per index.
 *
 * @example
 * ```ts
 * const postgres: SqlDialectSpec = { ...standardSql, name: 'postgres', idColumnType: 'BIGINT …', … };
 * ```
 */
export const standardSql: Pick<SqlDialectSpec, 'quote' | 'quoteString' | 'indexColumn' | 'createTable'> = {
  quote: doubleQuote,
  quoteString: (text) => `'${text.replaceAll("'", "''")}'`,
  indexColumn: (attribute) => doubleQuote(attribute.name),
  createTable: (table, columns, indexes) => [
    `CREATE TABLE IF NOT EXISTS ${doubleQuote(table)} (\n  ${columns.join(',\n  ')}\n)`,
    ...indexes.map(
      (index) =>
        `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${doubleQuote(index.name)} ON ${doubleQuote(table)} (${index.key})${
          index.whereNull === undefined ? '' : ` WHERE ${doubleQuote(index.whereNull)} IS NULL`
        }`,
    ),
  ],
};

/**
 * The first group of `pattern` in `text`, when `text` is a string that matches (drivers'
 * messages name columns and keys).
 *
 * @example
 * ```ts
 * firstGroup("Column 'author' cannot be null", /Column '([^']+)'/); // 'author'
 * ```
 */
export function firstGroup(text: unknown, pattern: RegExp): string | undefined {
  return typeof text === 'string' ? pattern.exec(text)?.[1] : undefined;
}

/**
 * `text` as a literal part of a LIKE pattern whose escape character is `!`: `%`, `_` and `!`
 * itself are escaped, so that they match themselves (a backslash is no escape under an explicit
 * `ESCAPE`, in PostgreSQL and MySQL alike).
 *
 * @example
 * ```ts
 * escapeLike('100%_!'); // '100!%!_!!'
 * ```
 */
export function escapeLike(text: string): string {
  return text.replace(/[!%_]/g, '!$&');
}

/**
 * `column LIKE '%text%' ESCAPE '!'`: a literal, case-sensitive `contains` on a column of binary
 * collation (PostgreSQL `"C"`, MySQL and MariaDB no-pad binary).
 *
 * @example
 * ```ts
 * const dialect: Pick<SqlDialectSpec, 'contains'> = { contains: likeContains };
 * ```
 */
export function likeContains(column: string, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} like ${`%${escapeLike(text)}%`} escape '!'`;
}

/**
 * The columns of a table as `information_schema` lists them (PostgreSQL, MySQL and MariaDB), in
 * the schema the connection uses: `current_schema()` or `database()`.
 *
 * @example
 * ```ts
 * await informationSchemaColumns(db, 'books', 'current_schema()'); // [{ name: 'id', type: 'bigint', nullable: false, … }]
 * ```
 */
export async function informationSchemaColumns(
  db: Parameters<SqlDialectSpec['describeColumns']>[0],
  table: string,
  schema: 'current_schema()' | 'database()',
): Promise<CatalogColumn[]> {
  const { rows } = await sql<{ name: string; type: string; nullable: string; scale: number | null }>`
    select column_name as name, data_type as type, is_nullable as nullable, numeric_scale as scale
    from information_schema.columns where table_schema = ${sql.raw(schema)} and table_name = ${table}`.execute(db);
  return rows.map((row) => ({
    name: row.name,
    type: String(row.type).toLowerCase(),
    nullable: row.nullable === 'YES',
    scale: row.scale === null ? undefined : Number(row.scale),
  }));
}
