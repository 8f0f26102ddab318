import type { AccessRules, Tenancy } from '../access/declare.js';
import { defaultRoles } from '../access/principal.js';
import { type ApiAccess, ResourceAccess } from '../access/resource-access.js';
import type { WhereTarget } from '../access/where.js';
import type { Keys } from '../http/keys.js';
import type { CollectionSchema, ForeignKey, OnDelete } from '../schema/types.js';
import type { Collection, Store } from '../store/store.js';
import type { CompiledResource } from './compile.js';
import type { InputRules } from './input/validate-input.js';
import type { Resource } from './options.js';
import { isModelTarget, type Relation } from './relations.js';
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
  /** Who may read and change what, decided for each caller (the resource's access and the API's tenancy). */
  readonly access: ResourceAccess;
  /** What the bodies of create and update may hold (the compiled rules, with the access's server-set fields read-only). */
  readonly inputs: { readonly create: InputRules; readonly update: InputRules };
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
  /**
   * The keys of the API's entity tags and cursors, once its secret is known (set by `createApi`
   * before the first request); a context made without an API uses random keys of the process.
   */
  keys?: Keys;
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
  access: ApiAccess = OPEN,
): MountedResources & { readonly all: readonly MountedResource[] } {
  const drafts = new Map<Resource, Draft>();
  for (const compiled of resources) {
    drafts.set(compiled.resource, {
      compiled,
      schema: compiled.schema,
      store: storeOf(compiled),
      collection: undefined as never,
      relations: new Map<string, LinkedRelation>(),
      access: undefined as never,
      inputs: { create: compiled.create, update: compiled.update },
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
    const references = [...(keys.get(draft)?.values() ?? [])].map(({ field, collection, onDelete }) => ({
      field,
      collection,
      onDelete,
    }));
    draft.access = new ResourceAccess(
      whereTarget(draft),
      compiled.resource.options.access as AccessRules | undefined,
      access,
      compiled.query,
      compiled.shown,
    );
    draft.schema = scopedSchema({ ...draft.schema, ...(references.length > 0 ? { references } : {}) }, access.tenancy);
    draft.inputs = withServerSet(compiled, draft.access.serverSet);
    draft.collection = withServerValues(draft.store.collection(draft.schema), compiled.serverValues);
  }
  const all = [...drafts.values()];
  return { all: referencedFirst(all), of: (resource) => drafts.get(resource) };
}

/** An API that neither authenticates nor has tenants: every resource's own rules alone. */
const OPEN: ApiAccess = { rolesOf: defaultRoles, authenticates: false };

/**
 * The schema a store keeps for a resource under the API's tenancy: its unique sets are unique
 * within a tenant (the tenant's field first, so the index serves the tenant's lookups too), and
 * the tenant's field is indexed.
 */
export function scopedSchema(schema: CollectionSchema, tenancy: Tenancy | undefined): CollectionSchema {
  const field = tenancy?.field;
  if (field === undefined || !schema.attributes.some((attribute) => attribute.name === field)) return schema;
  return {
    ...schema,
    indexed: schema.indexed.includes(field) ? schema.indexed : [field, ...schema.indexed],
    ...(schema.unique ? { unique: schema.unique.map((set) => (set.includes(field) ? set : [field, ...set])) } : {}),
  };
}

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
