import type { CollectionSchema, Scalar } from '@resourcery/core/store';
import { type Expression, type SqlBool, sql } from 'kysely';
import { constraintName } from '../ddl/names.js';
import type { CatalogColumn, CatalogKeys, SqlDialectSpec } from '../dialects/dialect.js';
// search-sql.ts reads this module too; each only calls the other's functions, never at load.
import { wordsColumn } from './search-sql.js';

// PostgreSQL, a searchable resource under tenancy: every search names one tenant, but a GIN index
// of the words column holds the words of every tenant, so a short prefix (`q=aed`) gathers the
// matches of all of them before the tenant's condition keeps a tenth (docs/performance.md, "The
// tracker at 1M issues"). The store keeps instead, next to each words column, the same words each
// after its record's tenant (`3:crash`), in a generated column `<field>__tenant_words` that
// PostgreSQL computes by an immutable function of the tenant and the words, and indexes that; a
// search in tenant 3 looks for `'3:cra':*`. Stored rather than an index of the expression, so that
// rechecking a row (a broad search's bitmap) reads a column instead of calling the function. The
// tenant's condition stays in the query, so the index only narrows what is read.

/** The function the generated columns are made by: the words of a words column, each after `<tenant>:`. */
export const TENANT_WORDS_FUNCTION = 'resourcery_tenant_words';

// Made once per database: a concurrent or earlier creation is as good (the same definition).
const CREATE_FUNCTION = `DO $$ BEGIN
  CREATE FUNCTION ${TENANT_WORDS_FUNCTION}(tenant text, words tsvector) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $f$ SELECT array_to_tsvector(array(SELECT coalesce(tenant, '') || ':' || lexeme FROM unnest(tsvector_to_array(words)) AS lexeme)) $f$;
EXCEPTION WHEN duplicate_function OR unique_violation THEN NULL;
END $$`;

/** The tenant types whose text form in PostgreSQL (`"orgId"::text`) the store can write from the value. */
const TENANT_TYPES = new Set(['integer', 'string', 'uuid']);

/**
 * Whether the store indexes the collection's search by tenant: PostgreSQL, under tenancy, with
 * `search`, a tenant of a type whose text form it knows.
 *
 * @example
 * ```ts
 * if (usesTenantWords(schema, postgres)) columns.push(...tenantWordsDdl(schema, 'issues', postgres).columns);
 * ```
 */
export function usesTenantWords(schema: CollectionSchema, dialect: SqlDialectSpec): boolean {
  const tenant = schema.attributes.find((attribute) => attribute.name === schema.tenant);
  return dialect.name === 'postgres' && (schema.search?.length ?? 0) > 0 && TENANT_TYPES.has(tenant?.type ?? '');
}

/**
 * The generated column of a searchable field's words, each after its record's tenant.
 *
 * @example
 * ```ts
 * tenantWordsColumn('title'); // 'title__tenant_words'
 * ```
 */
export function tenantWordsColumn(field: string): string {
  return `${field}__tenant_words`;
}

/**
 * The DDL of the words by tenant: the function (before the table, whose columns use it), the
 * generated columns, and their GIN indexes (after it), each statement idempotent.
 *
 * @example
 * ```ts
 * tenantWordsDdl(schema, 'issues', postgres).columns;
 * // ['"title__tenant_words" tsvector GENERATED ALWAYS AS (resourcery_tenant_words("orgId"::text, "title__words")) STORED']
 * ```
 */
export function tenantWordsDdl(
  schema: CollectionSchema,
  table: string,
  dialect: SqlDialectSpec,
): { before: string[]; columns: string[]; statements: string[] } {
  const q = (name: string) => dialect.quote(name);
  const fields = schema.search ?? [];
  const words = (field: string) =>
    `${TENANT_WORDS_FUNCTION}(${q(schema.tenant as string)}::text, ${q(wordsColumn(field))})`;
  return {
    before: [CREATE_FUNCTION],
    columns: fields.map(
      (field) => `${q(tenantWordsColumn(field))} tsvector GENERATED ALWAYS AS (${words(field)}) STORED`,
    ),
    statements: fields.map((field) => {
      const column = tenantWordsColumn(field);
      return `CREATE INDEX IF NOT EXISTS ${q(constraintName(table, [column], 'idx'))} ON ${q(table)} USING gin (${q(column)})`;
    }),
  };
}

/**
 * What an existing table lacks of the words by tenant: the generated columns and their GIN
 * indexes, among the table's columns and keys as the catalog describes them (`found`).
 *
 * @example
 * ```ts
 * tenantWordsDrift(schema, 'issues', postgres, { columns, keys }); // ['no column "title__tenant_words" …']
 * ```
 */
export function tenantWordsDrift(
  schema: CollectionSchema,
  table: string,
  dialect: SqlDialectSpec,
  found: { readonly columns: readonly CatalogColumn[]; readonly keys: CatalogKeys },
): string[] {
  const columns = new Map(found.columns.map((column) => [column.name, column.type]));
  const { indexes } = found.keys;
  const { columns: definitions, statements } = tenantWordsDdl(schema, table, dialect);
  return (schema.search ?? []).flatMap((field, at) => {
    const column = tenantWordsColumn(field);
    if (columns.get(column) !== 'tsvector')
      return [`no column ${definitions[at]} (${TENANT_WORDS_FUNCTION} as schemaSql() makes it)`];
    if (indexes.some((index) => index.columns[0]?.column === column)) return [];
    return [`no GIN index on "${column}" (${statements[at]})`];
  });
}

/**
 * The tsquery of a word in a tenant's index, `'3:cra':*`, or `undefined` when the tenant's value
 * has no text form the store knows (the words column's own index answers then).
 *
 * @example
 * ```ts
 * tenantWordQuery(schema, 3, 'cra'); // "'3:cra':*"
 * ```
 */
function tenantWordQuery(schema: CollectionSchema, tenant: Scalar, word: string): string | undefined {
  const type = schema.attributes.find((attribute) => attribute.name === schema.tenant)?.type;
  const text = tenantText(type, tenant);
  return text === undefined ? undefined : `'${`${text}:${word}`.replace(/['\\]/g, '\\$&')}':*`;
}

/** The text PostgreSQL makes of a tenant's value (`"orgId"::text`), or `undefined` when unsure. */
function tenantText(type: string | undefined, tenant: Scalar): string | undefined {
  if (type === 'string') return typeof tenant === 'string' ? tenant : undefined;
  if (type === 'integer') {
    if (typeof tenant === 'number') return Number.isSafeInteger(tenant) ? String(tenant) : undefined;
    return typeof tenant === 'string' && /^[+-]?\d+$/.test(tenant) ? BigInt(tenant).toString() : undefined;
  }
  // A uuid: lowercase, its 32 digits in groups of 8-4-4-4-12, whatever form it was given in.
  const digits = typeof tenant === 'string' ? tenant.replace(/[{}-]/g, '').toLowerCase() : '';
  if (type !== 'uuid' || !/^[0-9a-f]{32}$/.test(digits)) return undefined;
  return [digits.slice(0, 8), digits.slice(8, 12), digits.slice(12, 16), digits.slice(16, 20), digits.slice(20)].join(
    '-',
  );
}

/**
 * A word of a search in one tenant's words of a field, through the words by tenant; `undefined`
 * when the tenant's value has no text form the store knows.
 *
 * @example
 * ```ts
 * tenantWordMatches(schema, 'title', 3, 'cra'); // "title__tenant_words" @@ '3:cra':*
 * ```
 */
export function tenantWordMatches(
  schema: CollectionSchema,
  field: string,
  tenant: Scalar,
  word: string,
): Expression<SqlBool> | undefined {
  const query = tenantWordQuery(schema, tenant, word);
  if (query === undefined) return undefined;
  return sql<SqlBool>`${sql.ref(tenantWordsColumn(field))} @@ ${query}::tsquery`;
}
