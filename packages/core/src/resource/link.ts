import type { RelatedLookup } from '../query/resolve-filter.js';
import type { CollectionSchema, ForeignKey, OnDelete } from '../schema/types.js';
import type { Collection, Store } from '../store/store.js';
import type { CompiledResource } from './compile.js';
import { cursorKey } from './cursor.js';
import type { Resource } from './options.js';
import { isModelTarget, type Relation } from './relations.js';

/** A resource as an API serves it: its store, and its schema with the foreign keys its relations make. */
export interface MountedResource {
  readonly compiled: CompiledResource;
  readonly schema: CollectionSchema;
  readonly store: Store;
  /** The store's collection (the store adds the server's values to writes: see `serverValues`). */
  readonly collection: Collection;
  /** The relations, with their targets found. */
  readonly relations: ReadonlyMap<string, LinkedRelation>;
  /** The belongs-to relations `filter[relation.attr]` goes through. */
  readonly relatedFilters: RelatedLookup;
}

/** A relation whose target resource is known. */
export interface LinkedRelation {
  readonly name: string;
  readonly kind: Relation['kind'];
  readonly target: MountedResource;
  /** belongs-to: this resource's attribute; has-many: the target's. */
  readonly foreignKey: string;
  /** has-many: the most records `include` adds per record. */
  readonly limit: number;
}

/** The resources of one API, found by their declaration. */
export interface MountedResources {
  of(resource: Resource): MountedResource | undefined;
  /** The key that signs the API's pagination cursors. */
  readonly cursorKey: Uint8Array;
}

type Draft = { -readonly [K in keyof MountedResource]: MountedResource[K] };

function fail(resource: CompiledResource, name: string, message: string): never {
  throw new TypeError(`createApi: relation ${resource.resource.name}.${name} ${message}`);
}

/**
 * Finds every relation's target among the API's resources, checks the foreign keys, and adds
 * them to the schemas the stores see: a belongs-to, and a has-many the other side does not
 * declare, is a foreign key of the resource holding it.
 */
export function mountResources(
  resources: readonly CompiledResource[],
  storeOf: (compiled: CompiledResource) => Store,
  cursorSecret?: string,
): MountedResources & { readonly all: readonly MountedResource[] } {
  const drafts = new Map<Resource, Draft>();
  for (const compiled of resources) {
    const store = storeOf(compiled);
    const relations = new Map<string, LinkedRelation>();
    const belongsTo = () => [...relations.values()].filter((relation) => relation.kind === 'belongsTo');
    const relatedFilters = Object.defineProperty(
      (name: string) => {
        const relation = relations.get(name);
        if (relation?.kind !== 'belongsTo') return undefined;
        const { compiled: target } = relation.target;
        return { foreignKey: relation.foreignKey, collection: target.schema.name, rules: target.query };
      },
      'names',
      { get: () => belongsTo().map((relation) => relation.name) },
    ) as RelatedLookup;
    drafts.set(compiled.resource, {
      compiled,
      schema: compiled.schema,
      store,
      collection: undefined as never,
      relations,
      relatedFilters,
    });
  }
  const find = (from: CompiledResource, name: string, relation: Relation): Draft => {
    const { target } = relation;
    const matches = isModelTarget(target)
      ? [...drafts.values()].filter((draft) => draft.compiled.resource.model === target)
      : [...drafts.values()].filter((draft) => draft.compiled.resource === target());
    if (matches.length === 0) fail(from, name, 'names a resource this API does not serve: add it to `resources`');
    if (matches.length > 1)
      fail(from, name, 'names a model several resources serve: name the resource, `() => resource`');
    return matches[0] as Draft;
  };
  const keys = new Map<Draft, Map<string, ForeignKey & { declared?: OnDelete }>>();
  const addKey = (holder: Draft, target: Draft, field: string, onDelete: OnDelete | undefined, where: string) => {
    const attribute = holder.compiled.attributes.get(field);
    const idType = target.compiled.schema.attributes[0]?.type;
    if (!attribute)
      throw new TypeError(`createApi: ${where}: ${holder.compiled.resource.name} has no field "${field}"`);
    if (attribute.type !== idType)
      throw new TypeError(
        `createApi: ${where}: ${field} must be ${idType === 'uuid' ? 'a uuid' : 'an integer'}, as the ids it holds`,
      );
    if (holder.store !== target.store)
      throw new TypeError(`createApi: ${where}: both resources must use the same store`);
    const byField = keys.get(holder) ?? new Map<string, ForeignKey & { declared?: OnDelete }>();
    keys.set(holder, byField);
    const declared = byField.get(field)?.declared;
    if (declared && onDelete && declared !== onDelete) {
      throw new TypeError(`createApi: ${where}: onDelete differs on both sides of the relation`);
    }
    const rule = onDelete ?? declared;
    byField.set(field, {
      field,
      collection: target.compiled.schema.name,
      onDelete: rule ?? 'restrict',
      declared: rule,
    });
  };
  for (const draft of drafts.values()) {
    for (const [name, relation] of Object.entries(draft.compiled.relations)) {
      const target = find(draft.compiled, name, relation);
      const where = `relation ${draft.compiled.resource.name}.${name}`;
      if (relation.kind === 'belongsTo') addKey(draft, target, relation.foreignKey, relation.onDelete, where);
      else addKey(target, draft, relation.foreignKey, relation.onDelete, where);
      const limit = relation.kind === 'hasMany' ? relation.limit : 1;
      (draft.relations as Map<string, LinkedRelation>).set(name, {
        name,
        kind: relation.kind,
        target,
        foreignKey: relation.foreignKey,
        limit,
      });
    }
  }
  for (const draft of drafts.values()) {
    const references = [...(keys.get(draft)?.values() ?? [])].map(({ field, collection, onDelete }) => ({
      field,
      collection,
      onDelete,
    }));
    if (references.length > 0) draft.schema = { ...draft.schema, references };
    draft.collection = draft.store.collection(draft.schema);
  }
  const all = [...drafts.values()];
  return { all: referencedFirst(all), of: (resource) => drafts.get(resource), cursorKey: cursorKey(cursorSecret) };
}

/** The resources in an order where every referenced one comes before those referring to it (cycles kept as declared). */
function referencedFirst(all: MountedResource[]): MountedResource[] {
  const byName = new Map(all.map((mounted) => [mounted.schema.name, mounted]));
  const ordered: MountedResource[] = [];
  const visiting = new Set<MountedResource>();
  const visit = (mounted: MountedResource) => {
    if (ordered.includes(mounted) || visiting.has(mounted)) return;
    visiting.add(mounted);
    for (const key of mounted.schema.references ?? []) {
      const target = byName.get(key.collection);
      if (target) visit(target);
    }
    ordered.push(mounted);
  };
  for (const mounted of all) visit(mounted);
  return ordered;
}
