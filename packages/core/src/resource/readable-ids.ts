import { HttpError } from '../errors/http-error.js';
import type { Id } from '../schema/types.js';
import type { Condition } from '../store/store.js';
import type { Context } from './context.js';
import type { MountedResource } from './link.js';
import { readableOf } from './related.js';

// What a write's foreign keys and many-to-many ids may name: records of the target that this
// caller may read. One place for the checks of a single write (guard.ts, id-sets.ts) and the
// lookups a bulk create makes for all its records at once (bulk-references.ts), which share their
// answers through `ctx.references`.

/**
 * Whether what a caller may read of `target` can be less than what exists (its access, archive or
 * `scope` step); else the store's own foreign key answers for a missing record.
 *
 * @example
 * ```ts
 * if (!guardsReads(relation.target)) continue;
 * ```
 */
export function guardsReads(target: MountedResource): boolean {
  return target.access.restricted || target.compiled.archive !== undefined || target.compiled.steps.scoped;
}

/**
 * The key of `ctx.references` under which a bulk write keeps whether its caller may read record
 * `id` of `target`.
 *
 * @example
 * ```ts
 * ctx.references?.get(referenceKey(target, 7)); // true, false, or undefined when not asked yet
 * ```
 */
export function referenceKey(target: MountedResource, id: unknown): string {
  return `${target.schema.name} ${String(id)}`;
}

/**
 * The conditions of the records of `target` this caller may read through `foreignKey`, or
 * `undefined` when they may read none (their role is refused `read`).
 *
 * @example
 * ```ts
 * const where = await readableWhere(ctx, project, 'projectId');
 * ```
 */
export async function readableWhere(
  ctx: Context,
  target: MountedResource,
  foreignKey: string,
): Promise<readonly Condition[] | undefined> {
  return readableOf(ctx, target, foreignKey).catch((error: unknown) => {
    if (error instanceof HttpError && error.status === 403) return undefined; // they may read none
    throw error;
  });
}

/**
 * Those of `ids` (records of `target`) this caller may read through `foreignKey`, as strings, in
 * one query; none when they may read none.
 *
 * @example
 * ```ts
 * const found = await readableIds(ctx, label, 'labelIds', [1, 2]); // Set { '1' } when 2 is not theirs
 * ```
 */
export async function readableIds(
  ctx: Context,
  target: MountedResource,
  foreignKey: string,
  ids: readonly Id[],
): Promise<Set<string>> {
  const where = await readableWhere(ctx, target, foreignKey);
  if (!where) return new Set();
  const { records } = await ctx.collectionOf(target.compiled.resource).list({
    where: [{ field: 'id', values: ids }, ...where],
    order: [{ field: 'id', direction: 'asc' }],
    limit: ids.length,
    offset: 0,
    count: false,
    select: [],
  });
  return new Set(records.map((record) => String(record.id)));
}
