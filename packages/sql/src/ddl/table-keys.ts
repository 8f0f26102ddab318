import type { AttributeSchema, CollectionSchema, ForeignKey, IndexKey } from '@resourcery/core/store';
import type { SqlDialectSpec, TableIndex } from '../dialects/dialect.js';
import { constraintName, foreignKeyName, indexName } from './names.js';

// The indexes and foreign keys the store gives a table (docs/data-model.md "Indexes"), which
// createTableSql makes and keysDrift looks for in an existing table.

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
 * in a resource that archives (`schema.archive`), the index of a foreign key that its relation
 * filters read (`(tenant, field, id)`, or `(field, id)` without tenancy) holds the archive before
 * the id, and that of another field after it (`TableIndex.optionalColumn`: a table made before
 * either is no drift);
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
  // A resource that archives keeps the archive in the index its relation filters through a
  // foreign key read (after the tenant and the key, before the id): one parent's records that are
  // not archived are then a range of it, in id order, and their count reads the index alone. The
  // index of another field ends with it (after the id): a walk of that field's order keeps the
  // records that are not archived from the index alone (query/walk-page.ts).
  const archive = schema.archive !== undefined && attributes.has(schema.archive) ? schema.archive : undefined;
  const keyed = (lead: string[], field: string, read: boolean): TableIndex => {
    if (!read || archive === undefined || field === archive) return index([...lead, field, 'id'].map(ascending), 'idx');
    const keys = foreign.has(field) ? [...lead, field, archive, 'id'] : [...lead, field, 'id', archive];
    return { ...index(keys.map(ascending), 'idx'), optionalColumn: archive };
  };
  const single = [...new Set([...schema.indexed, ...foreign])]
    .filter((field) => indexable(field) && (foreign.has(field) || !tenanted.includes(field)))
    .map((field) => ({ ...keyed([], field, tenant === undefined), name: indexName(table, field) }));
  const withTenant = tenanted.map((field) => {
    const entry = keyed([tenant as string], field, true);
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
  const on = archive !== undefined && dialect.name === 'postgres' ? tenant : undefined;
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
