import type { RelatedLookup } from '../query/resolve-filter.js';
import type { CollectionSchema } from '../schema/types.js';
import type { Collection, Store } from '../store/store.js';
import type { CompiledResource } from './compile.js';
import { cursorKey } from './cursor.js';
import type { Resource } from './options.js';
import type { Relation } from './relations.js';
import { linkSchemas } from './schemas.js';
import { withServerValues } from './server-values.js';

/** A resource as an API serves it: its store, and its schema with the foreign keys its relations make. */
export interface MountedResource {
  readonly compiled: CompiledResource;
  readonly schema: CollectionSchema;
  readonly store: Store;
  /** The store's collection, adding the server's values to writes. */
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

/**
 * Finds every relation's target among the API's resources, checks the foreign keys, and adds
 * them to the schemas the stores see (see `linkSchemas`, which `resourceSchemas` shares): a
 * belongs-to, and a has-many the other side does not declare, is a foreign key of the resource
 * holding it. Both sides of a relation must use the same store.
 */
export function mountResources(
  resources: readonly CompiledResource[],
  storeOf: (compiled: CompiledResource) => Store,
  cursorSecret?: string,
): MountedResources & { readonly all: readonly MountedResource[] } {
  const linked = linkSchemas(resources, 'createApi');
  const drafts = new Map<Resource, Draft>();
  for (const compiled of resources) {
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
      schema: linked.schemas.get(compiled) as CollectionSchema,
      store: storeOf(compiled),
      collection: undefined as never,
      relations,
      relatedFilters,
    });
  }
  for (const { from, name, relation, target, where } of linked.relations) {
    const draft = drafts.get(from.resource) as Draft;
    const other = drafts.get(target.resource) as Draft;
    if (draft.store !== other.store) throw new TypeError(`createApi: ${where}: both resources must use the same store`);
    (draft.relations as Map<string, LinkedRelation>).set(name, {
      name,
      kind: relation.kind,
      target: other,
      foreignKey: relation.foreignKey,
      limit: relation.kind === 'hasMany' ? relation.limit : 1,
    });
  }
  for (const draft of drafts.values()) {
    draft.collection = withServerValues(draft.store.collection(draft.schema), draft.compiled.serverValues);
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
