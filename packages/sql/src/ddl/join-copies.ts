import type { AttributeSchema, CollectionSchema, IndexKey } from '@resourcery/core/store';
import type { SqlDialectSpec } from '../dialects/dialect.js';
import { tableKeys } from './table-keys.js';

// A join table (`issue_labels`) keeps, on each of its rows, a copy of its owner record's tenant and
// archive (`orgId`, `archivedAt` of the issue), and its index from the other side holds them
// between the two ids: `(labelId, orgId, archivedAt, issueId)`. The count of a relation filter
// (`filter[labels.name]=bug`: the issues of one organization, not archived, with the label) is then
// a range of that index alone, instead of one lookup of each join row's issue (docs/many-to-many.md
// "The join table", docs/performance.md "The tracker at 1M issues", sixth round). The store writes
// the copies with the join rows and whenever a write changes them (query/id-sets.ts).

/** A join collection's schema as the SQL stores keep it, with what it copies from its owner. */
export interface StoredJoin extends CollectionSchema {
  readonly copies?: {
    /** The owner collection (`issues`). */
    readonly owner: string;
    /** The join's attribute holding the owner's id (`issueId`). */
    readonly key: string;
    /** The join's attribute holding the other record's id (`labelId`). */
    readonly value: string;
    /** The owner's fields copied onto each join row, under the same names (`orgId`, `archivedAt`). */
    readonly fields: readonly string[];
    /** Which of `fields` is the owner's tenant, and which its archive. */
    readonly tenant?: string;
    readonly archive?: string;
    /**
     * Whether the owner keeps its count (`keepCount`): then the join table keeps, on PostgreSQL,
     * the count of its rows per other record and tenant, not archived (query/kept-count.ts).
     */
    readonly keepCount?: boolean;
  };
}

/**
 * The fields of a collection's records that the join tables of its sets copy: its tenant and its
 * archive, those it has.
 *
 * @example
 * ```ts
 * copiedFields({ ...issues, tenant: 'orgId', archive: 'archivedAt' }); // ['orgId', 'archivedAt']
 * ```
 */
export function copiedFields(owner: CollectionSchema): string[] {
  const names = new Set(owner.attributes.map((attribute) => attribute.name));
  return [owner.tenant, owner.archive].filter(
    (field, at, all): field is string => field !== undefined && names.has(field) && all.indexOf(field) === at,
  );
}

/**
 * An owner's attribute as its copy on a join row: the same type, nullable (so that a migration can
 * add it to a join table that has rows, in every database), without a default, CHECK or timestamp.
 */
function copyOf(attribute: AttributeSchema): AttributeSchema {
  const { default: _default, values: _values, timestamp: _timestamp, ...column } = attribute;
  return { ...column, nullable: true };
}

/**
 * The join collection of one of `owner`'s sets with the owner's copied fields ({@link copiedFields}):
 * the attributes added, and the index that starts from the other side (`(labelId, issueId)`) holding
 * them before the owner's id. Itself when the owner copies nothing.
 *
 * @example
 * ```ts
 * withCopies(issueLabels, issues).indexes; // [[labelId, orgId, archivedAt, issueId]]
 * ```
 */
export function withCopies(join: CollectionSchema, owner: CollectionSchema): StoredJoin {
  const set = owner.sets?.find((entry) => entry.through === join.name);
  const own = new Set(join.attributes.map((attribute) => attribute.name));
  const fields = set ? copiedFields(owner).filter((field) => !own.has(field)) : [];
  if (!set || fields.length === 0) return join;
  const attributes = owner.attributes.filter((attribute) => fields.includes(attribute.name)).map(copyOf);
  const ascending = (field: string): IndexKey => ({ field, direction: 'asc' });
  const fromOtherSide = (keys: readonly IndexKey[]) =>
    keys.length === 2 && keys[0]?.field === set.value && keys[1]?.field === set.key;
  const indexes = (join.indexes ?? []).map((keys) =>
    fromOtherSide(keys) ? [set.value, ...fields, set.key].map(ascending) : keys,
  );
  return {
    ...join,
    attributes: [...join.attributes, ...attributes],
    indexes,
    copies: {
      owner: owner.name,
      key: set.key,
      value: set.value,
      fields,
      ...(owner.tenant && fields.includes(owner.tenant) ? { tenant: owner.tenant } : {}),
      ...(owner.archive && fields.includes(owner.archive) ? { archive: owner.archive } : {}),
      ...(owner.keepCount ? { keepCount: true } : {}),
    },
  };
}

/**
 * The schemas as the SQL stores keep them: each join collection whose owner is among them
 * {@link withCopies}, every other one as it is.
 *
 * @example
 * ```ts
 * storedSchemas(resourceSchemas([issues, labels], { tenancy })); // issue_labels with orgId and archivedAt
 * ```
 */
export function storedSchemas(schemas: readonly CollectionSchema[]): CollectionSchema[] {
  return schemas.map((schema) => {
    const owner = schemas.find((other) => other.sets?.some((set) => set.through === schema.name));
    return owner ? withCopies(schema, owner) : schema;
  });
}

/**
 * The statements that bring a join table made before its copies up to date: each copied column
 * added, filled from the owner's rows, and the index that holds them; what the drift check of such
 * a table prints.
 *
 * @example
 * ```ts
 * copiesMigration(withCopies(issueLabels, issues), postgres, '');
 * // ['ALTER TABLE "issue_labels" ADD COLUMN "orgId" BIGINT', …, 'UPDATE "issue_labels" SET "orgId" = (SELECT …)', 'CREATE INDEX …']
 * ```
 */
export function copiesMigration(join: StoredJoin, dialect: SqlDialectSpec, prefix: string): string[] {
  const { copies } = join;
  if (!copies) return [];
  const { quote } = dialect;
  const table = quote(`${prefix}${join.name}`);
  const owner = quote(`${prefix}${copies.owner}`);
  const added = join.attributes
    .filter((attribute) => copies.fields.includes(attribute.name))
    .map((attribute) => `ALTER TABLE ${table} ADD COLUMN ${quote(attribute.name)} ${dialect.columnType(attribute)}`);
  const filled = copies.fields
    .map(
      (field) =>
        `${quote(field)} = (SELECT ${quote(field)} FROM ${owner} WHERE ${owner}.${quote('id')} = ${table}.${quote(copies.key)})`,
    )
    .join(', ');
  const index = tableKeys(join, dialect, prefix).indexes.find((entry) =>
    copies.fields.every((field) => entry.columns.some((column) => column.column === field)),
  );
  const indexed = index ? [`CREATE INDEX ${quote(index.name)} ON ${table} (${index.key})`] : [];
  return [...added, `UPDATE ${table} SET ${filled}`, ...indexed];
}
