import type { FieldView } from '../access/resource-access.js';
import { ForbiddenError } from '../errors/http-error.js';
import { parseIndexQuery } from '../query/parse-query.js';
import type { RelatedLookup } from '../query/resolve-filter.js';
import type { Scalar } from '../schema/types.js';
import type { Condition } from '../store/store.js';
import type { CompiledResource } from './compile.js';
import type { Context } from './context.js';
import type { Filter } from './context-types.js';
import type { LinkedRelation, MountedResource } from './link.js';

// What a request may read of the resources its records relate to. Every path that reads through
// a relation (include=, filter[relation.attr], the check of a foreign key) asks here, so that it
// sees of the target exactly what the caller's own index of the target would list: the target's
// read rule and tenancy (its access), its archive, and its scope step run in a context of its own.

const EMPTY: ReadonlySet<string> = new Set();
const fullViews = new WeakMap<CompiledResource, FieldView>();

/** Everything of a resource, for a context made without an API (no access applies). */
export function fullView(compiled: CompiledResource): FieldView {
  let view = fullViews.get(compiled);
  if (!view) {
    view = { hidden: EMPTY, noCreate: EMPTY, noUpdate: EMPTY, query: compiled.query, shown: compiled.shown };
    fullViews.set(compiled, view);
  }
  return view;
}

/** The condition that leaves a resource's archived records out. */
export function unarchived(compiled: CompiledResource): Condition[] {
  return compiled.archive ? [{ field: compiled.archive, values: [true], op: 'null' }] : [];
}

/**
 * The conditions of what a `scope` step answered: each field equal to its value, or to one of
 * its values when it is a list.
 *
 * @example
 * ```ts
 * scopeConditions({ ownerId: 7, status: ['open', 'closed'] });
 * // [{ field: 'ownerId', values: [7] }, { field: 'status', values: ['open', 'closed'] }]
 * ```
 */
export function scopeConditions(filter: Filter<Record<string, unknown>> | undefined): Condition[] {
  if (!filter) return [];
  return Object.entries(filter).map(([field, value]) => ({
    field,
    values: Array.isArray(value) ? (value as Scalar[]) : [value as Scalar],
  }));
}

/**
 * The conditions of the records of `target` this caller may read, as declared (its read rule
 * with the tenant's condition, and its archive), or `false` when they may read none.
 */
function declaredReads(ctx: Context, target: MountedResource): Condition[] | false {
  const decision = target.access.decide('read', ctx.principal);
  if (decision === false) return false;
  const archived = unarchived(target.compiled);
  return archived.length === 0 ? [...decision] : [...decision, ...archived];
}

/** The 403 of a relation whose target this caller may not read at all. */
function unreadable(target: MountedResource, parameter: string): ForbiddenError {
  return new ForbiddenError(`${parameter}: you may not read ${target.compiled.resource.plural}`);
}

/**
 * The conditions of the records of `target` this caller may read: its access and archive, and
 * its own scope step run in a context of the target (same request, principal and state; none of
 * the target's hooks). A 403 naming `parameter` when they may read none of them.
 *
 * @example
 * ```ts
 * const where = await readableOf(ctx, relation.target, 'include');
 * ```
 */
export async function readableOf(ctx: Context, target: MountedResource, parameter: string): Promise<Condition[]> {
  const declared = declaredReads(ctx, target);
  if (declared === false) throw unreadable(target, parameter);
  const { steps } = target.compiled;
  if (!steps.scoped) return declared;
  declared.push(...scopeConditions(await steps.scope(ctx.relatedTo(target))));
  return declared;
}

/**
 * Finds, before an index query is resolved, what the caller may read through each belongs-to
 * (or many-to-many) relation its filters name (`filter[author.name]`): `relatedLookup` then adds it to the filter.
 */
export async function prepareRelatedReads(ctx: Context): Promise<void> {
  const { rawQuery } = ctx.request;
  const relations = ctx.mounted?.self.relations;
  if (!relations || !rawQuery.includes('.')) return;
  const names = new Set<string>();
  for (const filter of parseIndexQuery(rawQuery, ctx.compiled.limits).filters) {
    const dot = filter.attribute.indexOf('.');
    if (dot > 0) names.add(filter.attribute.slice(0, dot));
  }
  const reads = new Map<string, readonly Condition[]>();
  for (const name of names) {
    const relation = relations.get(name);
    if (relation && relation.kind !== 'hasMany') {
      reads.set(name, await readableOf(ctx, relation.target, `filter[${name}.…]`));
    }
  }
  ctx.relatedReads = reads;
}

/**
 * The belongs-to and many-to-many relations `filter[relation.attr]` may go through, for this caller: the fields
 * of the target they may read, and the conditions of the target's records they may read, so that
 * a filter never matches through a record their own index of the target would not list.
 */
export function relatedLookup(ctx: Context): RelatedLookup | undefined {
  const relations = ctx.mounted?.self.relations;
  if (!relations) return undefined;
  const lookup = (name: string) => {
    const relation = relations.get(name);
    if (!relation || relation.kind === 'hasMany') return undefined;
    const { target, through } = relation;
    const where = ctx.relatedReads?.get(name) ?? declaredReads(ctx, target);
    if (where === false) throw unreadable(target, `filter[${name}.…]`);
    const rules = target.access.view(ctx.principal).query;
    return { foreignKey: relation.foreignKey, collection: target.schema.name, rules, where, through };
  };
  // A data property of names worked out once per resource. An accessor defined on each request's
  // function gave V8 a hidden class per request, held until a full collection, whose getter kept
  // the request's context (its records, its answer) alive through every young-generation
  // collection: 1.8 MB of each survived in the tracker's benchmark, 33 KB since.
  return Object.assign(lookup, { names: filterableRelations(relations) });
}

/** The names of the belongs-to and many-to-many relations of each resource's relations, by their map. */
const namesOf = new WeakMap<ReadonlyMap<string, LinkedRelation>, readonly string[]>();

function filterableRelations(relations: ReadonlyMap<string, LinkedRelation>): readonly string[] {
  let names = namesOf.get(relations);
  if (!names) {
    names = Object.freeze(
      [...relations.values()].filter((relation) => relation.kind !== 'hasMany').map(({ name }) => name),
    );
    namesOf.set(relations, names);
  }
  return names;
}
