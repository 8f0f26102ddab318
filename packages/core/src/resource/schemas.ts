import type { Tenancy } from '../access/declare.js';
import type { CollectionSchema, ForeignKey, IdSet, OnDelete } from '../schema/types.js';
import type { CompiledResource } from './compile.js';
import { compiledResource } from './define-resource.js';
import type { Resource } from './options.js';
import { isModelTarget, type ManyToMany, type Relation } from './relations.js';

/** A declared relation whose target was found among the resources of one API. */
export interface FoundRelation {
  readonly from: CompiledResource;
  readonly name: string;
  readonly relation: Relation;
  readonly target: CompiledResource;
  /** `relation book.author`, for messages. */
  readonly where: string;
}

/** The relations of a set of resources and their schemas as an API mounts them. */
export interface LinkedSchemas {
  readonly relations: readonly FoundRelation[];
  /** Each resource's schema with the foreign keys its relations make. */
  readonly schemas: ReadonlyMap<CompiledResource, CollectionSchema>;
  /** The join collections of each resource's many-to-many relations, by relation name. */
  readonly joins: ReadonlyMap<CompiledResource, ReadonlyMap<string, CollectionSchema>>;
}

/**
 * The join collection of a many-to-many relation `name` of `from` to `target`: `<from>_<name>`
 * (`issue_labels`) unless `through` names it, with `<from>Id` and `<target>Id` (`issueId`,
 * `labelId`), both required foreign keys that cascade, unique together, and indexed the other
 * way round (`labelId`, `issueId`) for the filters and cascades that start from the target.
 */
export function joinSchema(
  from: CompiledResource,
  name: string,
  relation: ManyToMany,
  target: CompiledResource,
): { schema: CollectionSchema; set: IdSet } {
  const key = `${from.resource.name}Id`;
  const value = `${target.resource.name}Id`;
  if (key === value) {
    throw new TypeError(`relation ${from.resource.name}.${name}: a many-to-many relation links two resources`);
  }
  const through = relation.through ?? `${from.resource.name}_${name}`;
  const idType = (compiled: CompiledResource) => compiled.schema.attributes[0]?.type ?? 'integer';
  const schema: CollectionSchema = {
    name: through,
    attributes: [
      { name: 'id', type: 'integer', nullable: false },
      { name: key, type: idType(from), nullable: false },
      { name: value, type: idType(target), nullable: false },
    ],
    indexed: [],
    unique: [[key, value]],
    indexes: [
      [
        { field: value, direction: 'asc' },
        { field: key, direction: 'asc' },
      ],
    ],
    references: [
      { field: key, collection: from.schema.name, onDelete: 'cascade' },
      { field: value, collection: target.schema.name, onDelete: 'cascade' },
    ],
  };
  return { schema, set: { field: relation.ids, through, key, value } };
}

type Key = ForeignKey & { declared?: OnDelete };

/**
 * Finds every relation's target among `resources`, checks the foreign keys, and adds them to the
 * schemas: a belongs-to, and a has-many the other side does not declare, is a foreign key of the
 * resource holding it; under a tenancy, unique sets are unique within a tenant (see
 * {@link scopedSchema}). `caller` starts the messages of the errors it throws.
 *
 * @throws TypeError for a target that is missing or ambiguous, a foreign key that is not a field
 * of the id's type, or `onDelete` rules that differ on both sides of a relation.
 */
export function linkSchemas(
  resources: readonly CompiledResource[],
  caller: string,
  tenancy?: Pick<Tenancy, 'field'>,
): LinkedSchemas {
  const find = (from: CompiledResource, name: string, relation: Relation): CompiledResource => {
    const { target } = relation;
    const matches = isModelTarget(target)
      ? resources.filter((compiled) => compiled.resource.model === target)
      : resources.filter((compiled) => compiled.resource === target());
    const fail = (message: string) => new TypeError(`${caller}: relation ${from.resource.name}.${name} ${message}`);
    if (matches.length === 0) throw fail('names a resource this API does not serve: add it to `resources`');
    if (matches.length > 1) throw fail('names a model several resources serve: name the resource, `() => resource`');
    return matches[0] as CompiledResource;
  };
  const keys = new Map<CompiledResource, Map<string, Key>>();
  const addKey = (
    holder: CompiledResource,
    target: CompiledResource,
    field: string,
    onDelete: OnDelete | undefined,
    where: string,
  ) => {
    const attribute = holder.attributes.get(field);
    const idType = target.schema.attributes[0]?.type;
    if (!attribute) throw new TypeError(`${caller}: ${where}: ${holder.resource.name} has no field "${field}"`);
    if (attribute.type !== idType) {
      throw new TypeError(
        `${caller}: ${where}: ${field} must be ${idType === 'uuid' ? 'a uuid' : 'an integer'}, as the ids it holds`,
      );
    }
    const byField = keys.get(holder) ?? new Map<string, Key>();
    keys.set(holder, byField);
    const declared = byField.get(field)?.declared;
    if (declared && onDelete && declared !== onDelete) {
      throw new TypeError(`${caller}: ${where}: onDelete differs on both sides of the relation`);
    }
    const rule = onDelete ?? declared;
    byField.set(field, { field, collection: target.schema.name, onDelete: rule ?? 'restrict', declared: rule });
  };
  const relations: FoundRelation[] = [];
  const joins = new Map<CompiledResource, Map<string, CollectionSchema>>();
  const sets = new Map<CompiledResource, IdSet[]>();
  for (const from of resources) {
    for (const [name, relation] of Object.entries(from.relations)) {
      const target = find(from, name, relation);
      const where = `relation ${from.resource.name}.${name}`;
      if (relation.kind === 'manyToMany') {
        const join = joinSchema(from, name, relation, target);
        if (!joins.has(from)) joins.set(from, new Map());
        joins.get(from)?.set(name, join.schema);
        sets.set(from, [...(sets.get(from) ?? []), join.set]);
      } else if (relation.kind === 'belongsTo') addKey(from, target, relation.foreignKey, relation.onDelete, where);
      else addKey(target, from, relation.foreignKey, relation.onDelete, where);
      relations.push({ from, name, relation, target, where });
    }
  }
  const schemas = new Map<CompiledResource, CollectionSchema>();
  for (const compiled of resources) {
    const references = [...(keys.get(compiled)?.values() ?? [])].map(({ field, collection, onDelete }) => ({
      field,
      collection,
      onDelete,
    }));
    const own = sets.get(compiled);
    const schema = {
      ...compiled.schema,
      ...(references.length > 0 ? { references } : {}),
      ...(own ? { sets: own } : {}),
    };
    const scoped = scopedSchema(references.length > 0 || own ? schema : compiled.schema, tenancy);
    schemas.set(compiled, archivedSchema(scoped, compiled.archive, tenancy));
  }
  return { relations, schemas, joins };
}

/**
 * The schemas of a set of resources exactly as an API serving them gives them to its store: with
 * the foreign keys their relations make (which `compiledResource(r).schema` alone cannot know,
 * since a relation's target is found among the API's resources), their unique sets and indexes,
 * followed by the join collections of their many-to-many relations (`issue_labels`). Give it every resource of the API, and give the result to migrations (`migrationsFor`,
 * `schemaSql`, the `resourcery-sql` config) so that they create the tables `sqlStore` would;
 * with the API's `tenancy` (its `field`) when it has one, as unique values are then unique within a tenant.
 *
 * @throws TypeError for a relation whose target is not among `resources`, as `createApi` would.
 * @example
 * ```ts
 * import { resourceSchemas } from '@resourcery/core/adapter';
 *
 * const schemas = resourceSchemas([authors, books]);
 * schemas[1]?.references; // [{ field: 'authorId', collection: 'authors', onDelete: 'restrict' }]
 * ```
 */
export function resourceSchemas(
  // biome-ignore lint/suspicious/noExplicitAny: resources of any model and state
  resources: readonly Resource<any, any>[],
  options: { readonly tenancy?: Pick<Tenancy, 'field'> } = {},
): CollectionSchema[] {
  const compiled = resources.map((resource) => compiledResource(resource));
  const { schemas, joins } = linkSchemas(compiled, 'resourceSchemas', options.tenancy);
  const own = compiled.map((entry) => schemas.get(entry) as CollectionSchema);
  return [...own, ...compiled.flatMap((entry) => [...(joins.get(entry)?.values() ?? [])])];
}

/**
 * The schema of a resource that archives (`archive: 'archivedAt'`), its `archive` named: every read
 * of it that does not ask for `archived=true` keeps `archivedAt IS NULL` (and the tenant), so an
 * index `(tenant, id, archivedAt)` serves the default order and counts them from the index alone.
 * (`archivedAt` last: before `id`, a database that keeps only the number of distinct values of a
 * key's prefix, SQLite, takes `archivedAt IS NULL` for as rare as one archive time, and prefers
 * this index to a selective one.)
 */
function archivedSchema(
  schema: CollectionSchema,
  archive: string | undefined,
  tenancy: Pick<Tenancy, 'field'> | undefined,
): CollectionSchema {
  if (archive === undefined) return schema;
  const tenant = tenancy?.field;
  const fields = [
    ...(tenant !== undefined && schema.attributes.some((attribute) => attribute.name === tenant) ? [tenant] : []),
    'id',
    archive,
  ];
  const key = fields.map((field) => ({ field, direction: 'asc' as const }));
  const same = (index: readonly { field: string }[]) =>
    index.length === key.length && index.every((part, n) => part.field === key[n]?.field);
  return {
    ...schema,
    archive,
    indexes: schema.indexes?.some(same) ? schema.indexes : [...(schema.indexes ?? []), key],
  };
}

/**
 * The schema a store keeps for a resource under the API's tenancy: its unique sets are unique
 * within a tenant (the tenant's field first, so the index serves the tenant's lookups too), the
 * tenant's field is indexed, and named as `tenant` (the SQL stores begin their indexes with it).
 */
export function scopedSchema(schema: CollectionSchema, tenancy: Pick<Tenancy, 'field'> | undefined): CollectionSchema {
  const field = tenancy?.field;
  if (field === undefined || !schema.attributes.some((attribute) => attribute.name === field)) return schema;
  return {
    ...schema,
    tenant: field,
    indexed: schema.indexed.includes(field) ? schema.indexed : [field, ...schema.indexed],
    ...(schema.unique ? { unique: schema.unique.map((set) => (set.includes(field) ? set : [field, ...set])) } : {}),
  };
}
