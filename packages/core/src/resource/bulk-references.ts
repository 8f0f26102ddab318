import type { Id } from '../schema/types.js';
import { canonicalUuid } from '../schema/values.js';
import type { Context } from './context.js';
import { guardsReads, readableIds, referenceKey } from './readable-ids.js';

// What the foreign keys and many-to-many ids of a bulk create name, looked up before its records
// are prepared: one query per relation for the whole batch (`id IN (…)` among what the caller may
// read), where each record's checks (`checkReferences`, `checkIdSets`) would otherwise ask the
// store once per distinct id. The answers go where those checks look first, `ctx.references`
// (`<collection> <id>`: whether the caller may read it), so each record still gets the 422 of a
// single create of it.

/** Most ids looked up at once for one relation; a batch naming more leaves them to the records' checks. */
const MOST = 1000;

/** An id as the record's checks will key it, or `undefined` for a value validation will refuse. */
function idOf(value: unknown, uuid: boolean): Id | undefined {
  if (uuid) return typeof value === 'string' ? canonicalUuid(value) : undefined;
  return Number.isSafeInteger(value) && (value as number) > 0 ? (value as number) : undefined;
}

/**
 * Looks up, once per relation, the records the entries' foreign keys (of targets whose access,
 * archive or scope decide what the caller may read) and many-to-many ids name, and records in
 * `ctx.references` whether the caller may read each. Entries are the bulk body's objects, not yet
 * validated: values that cannot be ids are left to validation.
 *
 * @example
 * ```ts
 * await lookUpReferences(ctx, [{ projectId: 7, labelIds: [1, 2] }, { projectId: 7 }]); // 2 queries
 * ```
 */
export async function lookUpReferences(ctx: Context, entries: readonly Record<string, unknown>[]): Promise<void> {
  const relations = ctx.mounted?.self.relations;
  const seen = ctx.references;
  if (!relations || !seen) return;
  for (const relation of relations.values()) {
    if (relation.kind === 'hasMany') continue;
    const { target, foreignKey } = relation;
    if (relation.kind === 'belongsTo' && !guardsReads(target)) continue; // the store's foreign key answers
    const uuid = target.schema.attributes[0]?.type === 'uuid';
    const ids = new Set<Id>();
    for (const entry of entries) {
      const sent = entry[foreignKey];
      for (const value of Array.isArray(sent) && relation.kind === 'manyToMany' ? sent : [sent]) {
        const id = idOf(value, uuid);
        if (id !== undefined && !seen.has(referenceKey(target, id))) ids.add(id);
      }
    }
    if (ids.size === 0 || ids.size > MOST) continue;
    const found = await readableIds(ctx, target, foreignKey, [...ids]);
    for (const id of ids) seen.set(referenceKey(target, id), found.has(String(id)));
  }
}
