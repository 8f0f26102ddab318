import {
  type AttributeSchema,
  type CollectionSchema,
  canonicalDateTime,
  canonicalDecimal,
  MAX_PRECISION,
  type Scalar,
} from '@resourcery/core/store';
import { referencedFirst } from './catalog.js';
import { dialectNamed, type SqlDialect, type SqlDialectSpec } from './dialects/index.js';
import { foreignKeyName, indexName, uniqueName } from './names.js';

/** Options of {@link createTableSql} and {@link schemaSql}. */
export interface SchemaSqlOptions {
  /** Prefix of every table name (`app_` makes `books` the table `app_books`). Default: none. */
  readonly tablePrefix?: string;
}

const ON_DELETE = { restrict: 'RESTRICT', cascade: 'CASCADE', nullify: 'SET NULL' } as const;

/** The indexed key: the field then the id, so that the id tie-breaker of every sort is in the index. */
function indexKey(attribute: AttributeSchema, dialect: SqlDialectSpec): string {
  // Where nulls sort last ascending, the store orders them first, as memory does, and an index
  // built the same way serves both directions.
  const nulls = attribute.nullable && !dialect.nullsSortFirst ? ' NULLS FIRST' : '';
  return `${dialect.indexColumn(attribute)}${nulls}, ${dialect.quote('id')}`;
}

/**
 * The attributes that get an index `(field, id)`: those of `schema.indexed` and every foreign
 * key (a destroy looks for the records referring to one), but `id` (the primary key) and `json`
 * (which is never compared).
 */
function indexedAttributes(schema: CollectionSchema): AttributeSchema[] {
  const fields = [...schema.indexed, ...(schema.references ?? []).map((key) => key.field)];
  return [...new Set(fields)].flatMap((field) => {
    const attribute = field === 'id' ? undefined : schema.attributes.find((candidate) => candidate.name === field);
    return attribute && attribute.type !== 'json' ? [attribute] : [];
  });
}

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
 * an id that is never reused (or a uuid primary key), an index `(field, id)` for every field in
 * `schema.indexed` and every foreign key, a unique index `<table>_<fields>_key` per unique set,
 * and a foreign key `<table>_<field>_fkey` per reference, with its `ON DELETE` rule. Nothing in
 * them drops or changes an existing table.
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
  const prefix = options.tablePrefix ?? '';
  const table = `${prefix}${schema.name}`;
  const idType = schema.attributes[0]?.type === 'uuid' ? 'uuid' : 'integer';
  const definitions = [`${spec.quote('id')} ${spec.idColumnType(idType)}`];
  for (const attribute of schema.attributes) {
    if (attribute.name !== 'id') definitions.push(columnDefinition(attribute, spec));
  }
  for (const key of schema.references ?? []) {
    definitions.push(
      `CONSTRAINT ${spec.quote(foreignKeyName(table, key.field))} FOREIGN KEY (${spec.quote(key.field)}) ` +
        `REFERENCES ${spec.quote(`${prefix}${key.collection}`)} (${spec.quote('id')}) ON DELETE ${ON_DELETE[key.onDelete]}`,
    );
  }
  const indexes = indexedAttributes(schema).map((attribute) => ({
    name: indexName(table, attribute.name),
    key: indexKey(attribute, spec),
  }));
  const uniques = (schema.unique ?? []).map((set) => ({
    name: uniqueName(table, set),
    key: set.map((field) => spec.quote(field)).join(', '),
    unique: true,
  }));
  return spec.createTable(table, definitions, [...uniques, ...indexes]);
}

/**
 * The DDL of several collections as one SQL script, referenced tables first, for teams that run
 * their own migrations (write it to a migration file, review it, apply it with your tool; then
 * pass `createTables: false` to `sqlStore`).
 *
 * @example
 * ```ts
 * import { compiledResource } from '@resourcery/core/adapter';
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
  return referencedFirst(schemas)
    .flatMap((schema) => createTableSql(schema, dialect, options).map((sql) => `${sql};\n`))
    .join('\n');
}
