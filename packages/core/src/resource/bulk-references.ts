import { HttpError } from '../errors/http-error.js';
import type { Id } from '../schema/types.js';
import type { Context } from './context.js';
import { readableOf } from './related.js';

// What the foreign keys and many-to-many ids of a bulk create name, looked up before its records
// are prepared: one query per relation for the whole batch (`id IN (…)` among what the caller may
// read), where each record's checks (`checkReferences`, `checkIdSets`) would otherwise ask the
// store once per distinct id. The answers go where those checks look first, `ctx.references`
// (`<collection> <id>`: whether the caller may read it), so each record still gets the 422 of a
// single create of it.

/** Most ids looked up at once for one relation; a batch naming more leaves them to the records' checks. */
const MOST = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id as the record's checks will key it, or `undefined` for a value validation will refuse. */
function idOf(value: unknown, uuid: boolean): Id | undefined {
  if (uuid) return typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : undefined;
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
    if (relation.kind === 'belongsTo') {
      const guarded = target.access.restricted || target.compiled.archive !== undefined || target.compiled.steps.scoped;
      if (!guarded) continue; // the store's foreign key answers, no lookup
    }
    const uuid = target.schema.attributes[0]?.type === 'uuid';
    const ids = new Set<Id>();
    for (const entry of entries) {
      const sent = entry[foreignKey];
      for (const value of Array.isArray(sent) && relation.kind === 'manyToMany' ? sent : [sent]) {
        const id = idOf(value, uuid);
        if (id !== undefined && !seen.has(`${target.schema.name} ${String(id)}`)) ids.add(id);
      }
    }
    if (ids.size === 0 || ids.size > MOST) continue;
    const where = await readableOf(ctx, target, foreignKey).catch((error: unknown) => {
      if (error instanceof HttpError && error.status === 403) return undefined; // they may read none
      throw error;
    });
    const found = new Set<string>();
    if (where) {
      const { records } = await ctx.collectionOf(target.compiled.resource).list({
        where: [{ field: 'id', values: [...ids] }, ...where],
        order: [{ field: 'id', direction: 'asc' }],
        limit: ids.size,
        offset: 0,
        count: false,
        select: [],
      });
      for (const record of records) found.add(String(record.id));
    }
    for (const id of ids) seen.set(`${target.schema.name} ${String(id)}`, found.has(String(id)));
  }
}
