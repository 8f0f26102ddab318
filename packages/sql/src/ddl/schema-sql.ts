import {
  type AttributeSchema,
  type CollectionSchema,
  canonicalDateTime,
  canonicalDecimal,
  MAX_PRECISION,
  type Scalar,
} from '@resourcery/core/store';
import { dialectNamed, type SqlDialect, type SqlDialectSpec } from '../dialects/index.js';
import { keptCountSql } from '../query/kept-count.js';
import { searchDdl } from '../query/search-sql.js';
import { referencedFirst } from './catalog.js';
import { tableChecks } from './check-constraints.js';
import { storedSchemas } from './join-copies.js';
import { tableKeys } from './table-keys.js';

/** Options of {@link createTableSql} and {@link schemaSql}. */
export interface SchemaSqlOptions {
  /** Prefix of every table name (`app_` makes `books` the table `app_books`). Default: none. */
  readonly tablePrefix?: string;
}

const ON_DELETE = { restrict: 'RESTRICT', cascade: 'CASCADE', nullify: 'SET NULL' } as const;

/** A declared default as an SQL literal of the column's type, or `undefined` for none. */
function defaultLiteral(attribute: AttributeSchema, value: Scalar | undefined, dialect: SqlDialectSpec) {
  if (value === undefined || value === null) return undefined;
  const refuse = () => new TypeError(`The default of ${attribute.name} is not a ${attribute.type}`);
  switch (attribute.type) {
    case 'boolean':
      if (typeof value !== 'boolean') throw refuse();
      return dialect.nativeBooleans ? String(value).toUpperCase() : value ? '1' : '0';
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw refuse();
      return String(value);
    case 'decimal': {
      if (typeof value === 'boolean') throw refuse();
      const decimal = canonicalDecimal(value, attribute.scale ?? 0, attribute.precision ?? MAX_PRECISION).value;
      if (decimal === undefined) throw refuse();
      return dialect.scaledDecimals ? String(Number(decimal.replace('.', ''))) : decimal;
    }
    case 'date-time': {
      const time = typeof value === 'string' ? canonicalDateTime(value) : undefined;
      if (time === undefined) throw refuse();
      return dialect.quoteString(dialect.dateTimeParameter(time));
    }
    default:
      if (typeof value !== 'string') throw refuse();
      return dialect.quoteString(attribute.type === 'uuid' ? value.toLowerCase() : value);
  }
}

/** One column's definition: type, `NOT NULL`, `DEFAULT`, `CHECK`. */
function columnDefinition(attribute: AttributeSchema, dialect: SqlDialectSpec): string {
  const literal = defaultLiteral(attribute, attribute.default, dialect);
  const check = dialect.columnCheck(attribute);
  return [
    `${dialect.quote(attribute.name)} ${dialect.columnType(attribute)}`,
    attribute.nullable ? '' : ' NOT NULL',
    literal === undefined ? '' : ` ${dialect.defaultClause(attribute, literal)}`,
    check === undefined ? '' : ` ${check}`,
  ].join('');
}

/**
 * The SQL statements that create one collection's table and its indexes if they do not exist:
 * typed columns, `NOT NULL` for required attributes, declared defaults, binary string collation,
 * an id that is never reused (or a uuid primary key), and the keys of {@link tableKeys}: a unique
 * index per unique set, the declared composite indexes, an index `(field, id)` for every field in
 * `schema.indexed` and every foreign key, a foreign key `<table>_<field>_fkey` per reference,
 * with its `ON DELETE` rule, a `CHECK (<field> IN (…))` named `<table>_<field>_check` per
 * attribute with `values`, a searchable field's words column and its index (query/search-sql.ts),
 * and a kept count's table and triggers (`keepCount` on PostgreSQL, query/kept-count.ts).
 * Nothing in them drops or changes an existing table.
 *
 * @example
 * ```ts
 * const [, bookSchema] = resourceSchemas([authors, books]); // with its foreign keys
 * for (const statement of createTableSql(bookSchema, 'postgres')) console.log(`${statement};`);
 * ```
 */
export function createTableSql(
  schema: CollectionSchema,
  dialect: SqlDialect,
  options: SchemaSqlOptions = {},
): string[] {
  const spec = dialectNamed(dialect);
  const prefix = options.tablePrefix ?? '';
  const table = `${prefix}${schema.name}`;
  const idType = schema.attributes[0]?.type === 'uuid' ? 'uuid' : 'integer';
  const definitions = [`${spec.quote('id')} ${spec.idColumnType(idType)}`];
  for (const attribute of schema.attributes) {
    if (attribute.name !== 'id') definitions.push(columnDefinition(attribute, spec));
  }
  const { indexes, foreignKeys } = tableKeys(schema, spec, prefix);
  const search = searchDdl(schema, table, spec);
  definitions.push(...search.columns);
  for (const key of foreignKeys) {
    definitions.push(
      `CONSTRAINT ${spec.quote(key.name)} FOREIGN KEY (${spec.quote(key.field)}) ` +
        `REFERENCES ${spec.quote(key.table)} (${spec.quote('id')}) ON DELETE ${ON_DELETE[key.onDelete]}`,
    );
  }
  for (const check of tableChecks(schema, spec, prefix)) definitions.push(check.definition);
  return [
    ...(search.before ?? []),
    ...spec.createTable(table, definitions, indexes),
    ...search.statements,
    ...keptCountSql(schema, table, spec),
  ];
}

/**
 * The DDL of several collections as one SQL script, referenced tables first, for teams that run
 * their own migrations (write it to a migration file, review it, apply it with your tool; then
 * pass `createTables: false` to `sqlStore`).
 *
 * @example
 * ```ts
 * import { resourceSchemas } from '@resourcery/core/adapter';
 * import { schemaSql } from '@resourcery/sql';
 *
 * writeFileSync('migrations/001_books.sql', schemaSql(resourceSchemas([authors, books]), 'mariadb'));
 * ```
 */
export function schemaSql(
  schemas: readonly CollectionSchema[],
  dialect: SqlDialect,
  options: SchemaSqlOptions = {},
): string {
  return referencedFirst(storedSchemas(schemas))
    .flatMap((schema) => createTableSql(schema, dialect, options).map((sql) => `${sql};\n`))
    .join('\n');
}
