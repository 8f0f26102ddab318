import {
  type AttributeSchema,
  type CollectionSchema,
  canonicalDateTime,
  canonicalDecimal,
  type ForeignKey,
  type IndexKey,
  MAX_PRECISION,
  type Scalar,
} from '@resourcery/core/store';
import type { TableIndex } from '../dialects/dialect.js';
import { dialectNamed, type SqlDialect, type SqlDialectSpec } from '../dialects/index.js';
import { searchDdl } from '../query/search-sql.js';
import { referencedFirst } from './catalog.js';
import { tableChecks } from './check-constraints.js';
import { constraintName, foreignKeyName, indexName } from './names.js';

/** Options of {@link createTableSql} and {@link schemaSql}. */
export interface SchemaSqlOptions {
  /** Prefix of every table name (`app_` makes `books` the table `app_books`). Default: none. */
  readonly tablePrefix?: string;
}

const ON_DELETE = { restrict: 'RESTRICT', cascade: 'CASCADE', nullify: 'SET NULL' } as const;

/** One key column as SQL: quoted, with its direction, and where nulls go when the database would put them elsewhere. */
function keyColumn(attribute: AttributeSchema, descending: boolean, dialect: SqlDialectSpec): string {
  // The store orders nulls first ascending and last descending, as memory does; where the
  // database does otherwise, the index says so, so that it serves that order in either direction.
  const nulls = attribute.nullable && !dialect.nullsSortFirst ? (descending ? ' NULLS LAST' : ' NULLS FIRST') : '';
  return `${dialect.indexColumn(attribute)}${descending ? ' DESC' : ''}${nulls}`;
}

/** A foreign key of a table as the store creates it. */
export interface TableForeignKey {
  readonly name: string;
  readonly field: string;
  /** The referenced table (with the prefix). */
  readonly table: string;
  readonly onDelete: ForeignKey['onDelete'];
}

/** Whether `a` is `b` or its beginning (the same columns in the same directions): `b` serves every query `a` would. */
function isPrefix(a: TableIndex, b: TableIndex): boolean {
  return (
    a.columns.length <= b.columns.length &&
    a.columns.every((key, at) => key.column === b.columns[at]?.column && key.descending === b.columns[at]?.descending)
  );
}

/**
 * The indexes and foreign keys the store gives a collection's table: a unique index
 * `<table>_<fields>_key` per unique set; an index per declared composite index (`schema.indexes`);
 * an index `(field, id)` for every field of `schema.indexed` and every foreign key (a destroy
 * looks for the records referring to one), but `id` (the primary key) and `json` (never compared),
 * and, under tenancy (`schema.tenant`), `(tenant, field, id)` for the fields of `schema.indexed`;
 * for a resource that archives under tenancy (`schema.archive`), on PostgreSQL, `(tenant) WHERE
 * archive IS NULL` (`<table>_<tenant>_live_idx`), which counts the tenant's records that are not
 * archived; and a foreign key `<table>_<field>_fkey` per reference.
 * An index whose key begins another is left out: the longer one serves it.
 *
 * @example
 * ```ts
 * tableKeys(schema, postgres, 'api_').indexes.map((index) => index.name); // ['api_books_isbn_key', …]
 * ```
 */
export function tableKeys(
  schema: CollectionSchema,
  dialect: SqlDialectSpec,
  prefix: string,
): { indexes: TableIndex[]; foreignKeys: TableForeignKey[] } {
  const table = `${prefix}${schema.name}`;
  const attributes = new Map(schema.attributes.map((attribute) => [attribute.name, attribute]));
  const index = (keys: readonly IndexKey[], suffix: 'idx' | 'key'): TableIndex => {
    const known = keys.map((key) => {
      const attribute = attributes.get(key.field);
      if (!attribute) throw new TypeError(`An index of ${table} names "${key.field}", which is not an attribute`);
      return { attribute, descending: key.direction === 'desc' };
    });
    const names = keys.map((key) => (key.direction === 'desc' ? `${key.field}_desc` : key.field));
    return {
      name: constraintName(table, suffix === 'key' ? keys.map((key) => key.field) : names, suffix),
      key: known
        .map(({ attribute, descending }) =>
          suffix === 'key' ? dialect.quote(attribute.name) : keyColumn(attribute, descending, dialect),
        )
        .join(', '),
      columns: known.map(({ attribute, descending }) => ({ column: attribute.name, descending })),
      ...(suffix === 'key' ? { unique: true } : {}),
    };
  };
  const ascending = (field: string): IndexKey => ({ field, direction: 'asc' });
  const uniques = (schema.unique ?? []).map((set) => index(set.map(ascending), 'key'));
  const declared = (schema.indexes ?? []).map((keys) => index(keys, 'idx'));
  // A field that is not an attribute, or holds JSON (never compared), gets no index of its own.
  const indexable = (field: string) => field !== 'id' && ![undefined, 'json'].includes(attributes.get(field)?.type);
  const foreign = new Set((schema.references ?? []).map((key) => key.field));
  // Under tenancy every read names the tenant: a filtered or sorted field's index begins with it
  // (a foreign key keeps its own `(field, id)` too, for the destroys that look for referrers).
  const { tenant } = schema;
  const tenanted = tenant === undefined ? [] : schema.indexed.filter((field) => field !== tenant && indexable(field));
  const single = [...new Set([...schema.indexed, ...foreign])]
    .filter((field) => indexable(field) && (foreign.has(field) || !tenanted.includes(field)))
    .map((field) => ({ ...index([ascending(field), ascending('id')], 'idx'), name: indexName(table, field) }));
  const withTenant = tenanted.map((field) => {
    const entry = index([ascending(tenant as string), ascending(field), ascending('id')], 'idx');
    return foreign.has(field) ? entry : { ...entry, name: indexName(table, field) };
  });
  const plain = [...declared, ...single, ...withTenant];
  const kept = plain.filter(
    (candidate, at) =>
      !plain.some(
        (other, at2) => other !== candidate && isPrefix(candidate, other) && (!isPrefix(other, candidate) || at2 < at),
      ),
  );
  // On PostgreSQL, a resource that archives under tenancy: its tenant's records that are not
  // archived, for counts (the B-tree keeps a key's row ids once, so it is small; SQLite counts as
  // fast from (tenant, archive, id), MySQL has no partial index).
  const { archive } = schema;
  const on = archive !== undefined && attributes.has(archive) && dialect.name === 'postgres' ? tenant : undefined;
  const live = (on === undefined ? [] : [index([ascending(on)], 'idx')]).map((entry) => ({
    ...entry,
    name: constraintName(table, [on as string, 'live'], 'idx'),
    whereNull: archive,
  }));
  const names = new Set<string>();
  const indexes = [...uniques, ...kept, ...live].map((entry) => {
    let name = entry.name;
    for (let n = 2; names.has(name); n++) name = constraintName(table, [entry.name, String(n)], 'idx');
    names.add(name);
    return { ...entry, name };
  });
  const foreignKeys = (schema.references ?? []).map((key) => ({
    name: foreignKeyName(table, key.field),
    field: key.field,
    table: `${prefix}${key.collection}`,
    onDelete: key.onDelete,
  }));
  return { indexes, foreignKeys };
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
 * an id that is never reused (or a uuid primary key), and the keys of {@link tableKeys}: a unique
 * index per unique set, the declared composite indexes, an index `(field, id)` for every field in
 * `schema.indexed` and every foreign key, a foreign key `<table>_<field>_fkey` per reference,
 * with its `ON DELETE` rule, a `CHECK (<field> IN (…))` named `<table>_<field>_check` per
 * attribute with `values`, and a searchable field's words column and its index (query/search-sql.ts).
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
  return [...spec.createTable(table, definitions, indexes), ...search.statements];
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
  return referencedFirst(schemas)
    .flatMap((schema) => createTableSql(schema, dialect, options).map((sql) => `${sql};\n`))
    .join('\n');
}
