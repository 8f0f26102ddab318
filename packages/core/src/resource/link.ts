import type { AccessRules } from '../access/declare.js';
import { defaultRoles } from '../access/principal.js';
import { type ApiAccess, ResourceAccess } from '../access/resource-access.js';
import type { WhereTarget } from '../access/where.js';
import type { Keys } from '../http/keys.js';
import { referencedFirst } from '../schema/referenced-first.js';
import type { CollectionSchema } from '../schema/types.js';
import type { Collection, Store } from '../store/store.js';
import type { CompiledResource } from './compile.js';
import type { LiveEvents } from './events.js';
import type { InputRules } from './input/validate-input.js';
import type { Resource } from './options.js';
import type { Relation } from './relations.js';
import { linkSchemas } from './schemas.js';

/** A resource as an API serves it: its store, and its schema with the foreign keys its relations make. */
export interface MountedResource {
  readonly compiled: CompiledResource;
  readonly schema: CollectionSchema;
  readonly store: Store;
  /** The store's collection (the store adds the server's values to writes: see `serverValues`). */
  readonly collection: Collection;
  /** The relations, with their targets found. */
  readonly relations: ReadonlyMap<string, LinkedRelation>;
  /** Who may read and change what, decided for each caller (the resource's access and the API's tenancy). */
  readonly access: ResourceAccess;
  /** What the bodies of create and update may hold (the compiled rules, with the access's server-set fields read-only). */
  readonly inputs: { readonly create: InputRules; readonly update: InputRules };
  /** The join collections of its many-to-many relations (the store gets them as any other). */
  readonly joins: readonly CollectionSchema[];
}

/** A relation whose target resource is known. */
export interface LinkedRelation {
  readonly name: string;
  readonly kind: Relation['kind'];
  readonly target: MountedResource;
  /** belongs-to: this resource's attribute; has-many: the target's; many-to-many: the field holding the ids. */
  readonly foreignKey: string;
  /** has-many: the most records `include` adds per record; many-to-many: the most ids a record holds. */
  readonly limit: number;
  /** many-to-many: the join collection and its two attributes (this record's id, the target's). */
  readonly through?: { readonly collection: string; readonly key: string; readonly value: string };
}

/** The resources of one API, found by their declaration. */
export interface MountedResources {
  of(resource: Resource): MountedResource | undefined;
  /**
   * The keys of the API's entity tags and cursors, once its secret is known (set by `createApi`
   * before the first request); a context made without an API uses random keys of the process.
   */
  keys?: Keys;
  /** The live events of the API (hubs, limits, open streams), when one of its resources is live. */
  live?: LiveEvents;
}

type Draft = { -readonly [K in keyof MountedResource]: MountedResource[K] };

/**
 * Finds every relation's target among the API's resources, checks the foreign keys, and adds
 * them to the schemas the stores see (see `linkSchemas`, which `resourceSchemas` shares): a
 * belongs-to, and a has-many the other side does not declare, is a foreign key of the resource
 * holding it. Both sides of a relation must use the same store. Each resource gets its access
 * model, compiled once, with the API's tenancy.
 */
export function mountResources(
  resources: readonly CompiledResource[],
  storeOf: (compiled: CompiledResource) => Store,
  access: ApiAccess = OPEN,
): MountedResources & { readonly all: readonly MountedResource[] } {
  const linked = linkSchemas(resources, 'createApi', access.tenancy);
  const drafts = new Map<Resource, Draft>();
  for (const compiled of resources) {
    drafts.set(compiled.resource, {
      compiled,
      schema: linked.schemas.get(compiled) as CollectionSchema,
      store: storeOf(compiled),
      collection: undefined as never,
      relations: new Map<string, LinkedRelation>(),
      access: undefined as never,
      inputs: { create: compiled.create, update: compiled.update },
      joins: [...(linked.joins.get(compiled)?.values() ?? [])],
    });
  }
  for (const { from, name, relation, target, where } of linked.relations) {
    const draft = drafts.get(from.resource) as Draft;
    const other = drafts.get(target.resource) as Draft;
    if (draft.store !== other.store) throw new TypeError(`createApi: ${where}: both resources must use the same store`);
    const join = relation.kind === 'manyToMany' ? linked.joins.get(from)?.get(name) : undefined;
    const set = join && draft.schema.sets?.find((entry) => entry.through === join.name);
    (draft.relations as Map<string, LinkedRelation>).set(name, {
      name,
      kind: relation.kind,
      target: other,
      foreignKey: relation.kind === 'manyToMany' ? relation.ids : relation.foreignKey,
      limit: relation.kind === 'belongsTo' ? 1 : relation.limit,
      ...(set ? { through: { collection: set.through, key: set.key, value: set.value } } : {}),
    });
  }
  const targets = new Map<Draft, WhereTarget>();
  const whereTarget = (draft: Draft): WhereTarget => {
    let target = targets.get(draft);
    if (!target) {
      target = {
        name: draft.compiled.resource.name,
        attributes: draft.compiled.attributes,
        belongsTo: (name) => {
          const relation = draft.relations.get(name);
          if (relation?.kind !== 'belongsTo') return undefined;
          const related = relation.target as Draft;
          return { foreignKey: relation.foreignKey, collection: related.schema.name, target: whereTarget(related) };
        },
      };
      targets.set(draft, target);
    }
    return target;
  };
  for (const draft of drafts.values()) {
    const { compiled } = draft;
    const declared = compiled.resource.options.access as AccessRules | undefined;
    draft.access = new ResourceAccess(whereTarget(draft), declared, access, compiled.query, compiled.shown);
    draft.inputs = withServerSet(compiled, draft.access.serverSet);
    draft.collection = draft.store.collection(draft.schema);
    if (compiled.stats && !draft.collection.aggregate) {
      throw new TypeError(`${compiled.resource.name} declares stats, but its store has no Collection.aggregate`);
    }
    if (compiled.enabled.has('events') && !draft.store.changes) {
      throw new TypeError(`${compiled.resource.name} is live, but its store keeps no change log (Store.changes)`);
    }
  }
  for (const draft of drafts.values()) for (const join of draft.joins) draft.store.collection(join);
  const all = [...drafts.values()];
  return { all: referencedFirst(all, (mounted) => mounted.schema), of: (resource) => drafts.get(resource) };
}

/** An API that neither authenticates nor has tenants: every resource's own rules alone. */
const OPEN: ApiAccess = { rolesOf: defaultRoles, authenticates: false };

/** The input rules of create and update with the fields the server sets from the principal read-only. */
function withServerSet(compiled: CompiledResource, serverSet: readonly string[]): MountedResource['inputs'] {
  if (serverSet.length === 0) return { create: compiled.create, update: compiled.update };
  const readOnly = (rules: InputRules): InputRules => ({
    ...rules,
    readOnly: new Set([...rules.readOnly, ...serverSet]),
    writable: new Set([...rules.writable].filter((name) => !serverSet.includes(name))),
  });
  return { create: readOnly(compiled.create), update: readOnly(compiled.update) };
}
