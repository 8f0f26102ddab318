import type { AttributeSchema, CollectionSchema } from '@resourcery/core/store';
import type {
  CatalogColumn,
  CatalogIndex,
  CatalogKeys,
  IndexColumn,
  SqlDialectSpec,
  TableIndex,
} from '../dialects/dialect.js';
import { type TableForeignKey, tableKeys } from './table-keys.js';

// The drift check: what keeps an existing table from being the one the store would create for a
// declaration. The store never alters an existing table; it names each difference instead.

/** How a column differs from the attribute it holds, if it does. */
function columnDrift(attribute: AttributeSchema, column: CatalogColumn, dialect: SqlDialectSpec): string | undefined {
  const { name, type } = attribute;
  if (!dialect.typeFamilies[type].test(column.type)) {
    return `column "${name}" is ${column.type}, which cannot hold the declared ${type}`;
  }
  const scale = attribute.scale ?? 0;
  if (type === 'decimal' && column.scale !== undefined && column.scale !== scale) {
    return `column "${name}" keeps ${column.scale} decimal places where ${scale} are declared`;
  }
  if (name === 'id' || column.nullable === attribute.nullable) return undefined;
  return attribute.nullable
    ? `column "${name}" is NOT NULL but ${name} is declared nullable`
    : `column "${name}" accepts NULL but ${name} is declared required`;
}

/**
 * What keeps an existing table from holding a collection's records as the store expects: the
 * columns it lacks, columns of another type family (text for a decimal…), another number of
 * decimal places, another nullability. Empty when the table fits (extra columns are fine).
 *
 * @example
 * ```ts
 * tableDrift(schema, await postgres.describeColumns(db, 'books'), postgres); // ['column "price" is text, …']
 * ```
 */
export function tableDrift(
  schema: CollectionSchema,
  columns: readonly CatalogColumn[],
  dialect: SqlDialectSpec,
): { missing: string[]; different: string[] } {
  const byName = new Map(columns.map((column) => [column.name, column]));
  const missing: string[] = [];
  const different: string[] = [];
  for (const attribute of schema.attributes) {
    const column = byName.get(attribute.name);
    if (!column) missing.push(attribute.name);
    else {
      const drift = columnDrift(attribute, column, dialect);
      if (drift) different.push(drift);
    }
  }
  return { missing, different };
}

/** The catalog's `ON DELETE` rules that do what each declared rule does (`NO ACTION` refuses too). */
const RULES: Readonly<Record<TableForeignKey['onDelete'], readonly string[]>> = {
  restrict: ['restrict', 'no action'],
  cascade: ['cascade'],
  nullify: ['set null'],
};

/**
 * Whether an index of the catalog serves a wanted one: for a unique one, a unique index of the
 * same set of whole columns; else the wanted key, in its directions, at the start of its own (a
 * TEXT column indexed by prefix, as the store does on MySQL, counts; where nulls go is not
 * compared: it matters to some orders, never to a filter). A partial index the store wants (the
 * records that are not archived) is served by any index whose key begins with its own, partial or
 * not: it only makes a count smaller to read, so a table made before it (whose full index serves
 * the same reads) is no drift. So is one whose key is the wanted one without its optional column
 * (`TableIndex.optionalColumn`: the archive, which the store added to the indexes of a resource
 * that archives).
 */
function serves(found: CatalogIndex, wanted: TableIndex): boolean {
  if (found.partial && wanted.whereNull === undefined) return false;
  if (wanted.unique) {
    const columns = new Set(found.columns.map((key) => (key.prefix ? '' : key.column)));
    return (
      found.unique && columns.size === wanted.columns.length && wanted.columns.every((key) => columns.has(key.column))
    );
  }
  const begins = (columns: readonly IndexColumn[]) =>
    columns.every((key, at) => {
      const other = found.columns[at];
      return other?.column === key.column && other.descending === key.descending;
    });
  const { optionalColumn } = wanted;
  return (
    begins(wanted.columns) ||
    (optionalColumn !== undefined && begins(wanted.columns.filter((key) => key.column !== optionalColumn)))
  );
}

/**
 * What an existing table lacks among the keys the store would give it ({@link tableKeys}): unique
 * indexes (else two records could share a value), foreign keys with their `ON DELETE` rule (else
 * a record could name nothing), and indexes (else queries read the whole table). An index is
 * found by what it holds, whatever its name; extra indexes and keys are fine.
 *
 * @example
 * ```ts
 * keysDrift(schema, await postgres.describeKeys(db, 'books'), postgres, ''); // ['no foreign key "authorId" → authors.id …']
 * ```
 */
export function keysDrift(
  schema: CollectionSchema,
  catalog: CatalogKeys,
  dialect: SqlDialectSpec,
  tablePrefix: string,
): string[] {
  const { indexes, foreignKeys } = tableKeys(schema, dialect, tablePrefix);
  const drift: string[] = [];
  for (const index of indexes) {
    if (catalog.indexes.some((found) => serves(found, index))) continue;
    drift.push(`no ${index.unique ? 'unique index' : 'index'} (${index.key}) (the store names it "${index.name}")`);
  }
  for (const key of foreignKeys) {
    const rule = (onDelete: string) => `ON DELETE ${onDelete === 'nullify' ? 'SET NULL' : onDelete.toUpperCase()}`;
    const found = catalog.foreignKeys.filter((candidate) => candidate.column === key.field);
    const same = found.find((candidate) => candidate.table === key.table && candidate.references === 'id');
    if (same && RULES[key.onDelete].includes(same.onDelete)) continue;
    const other = same ?? found[0];
    if (!other) {
      drift.push(
        `no foreign key "${key.field}" → ${key.table}.id ${rule(key.onDelete)} (the store names it "${key.name}")`,
      );
    } else if (other === same) {
      drift.push(
        `the foreign key on "${key.field}" is ${rule(other.onDelete)} where ${rule(key.onDelete)} is declared`,
      );
    } else {
      drift.push(
        `the foreign key on "${key.field}" refers to ${other.table}.${other.references} where ${key.table}.id is declared`,
      );
    }
  }
  return drift;
}
