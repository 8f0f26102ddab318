import { type FieldErrors, ValidationError } from '../errors/http-error.js';
import type { Id } from '../schema/types.js';
import type { Context } from './context.js';
import { isPlainObject } from './input/typed-value.js';
import { readableIds, referenceKey } from './readable-ids.js';

// The ids of a many-to-many relation in a write's body (`labelIds`): read apart from the model's
// attributes (they are no column of the record's table), checked, and written by the store with
// the record, in the same atomic step.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The members of a body, and where they are (the body itself or the object under the singular key). */
function members(ctx: Context, body: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(body)) return undefined;
  const name = ctx.resource.name;
  const keys = Object.keys(body);
  if (keys.length === 1 && keys[0] === name && !ctx.compiled.attributes.has(name)) {
    const inner = body[name];
    return isPlainObject(inner) ? inner : undefined;
  }
  return body;
}

/** The distinct ids sent, ascending, or what is wrong with them. */
function idsOf(sent: unknown, uuid: boolean, limit: number): { ids: Id[] } | { error: string } {
  if (!Array.isArray(sent)) return { error: 'must be an array of ids' };
  const ids = new Set<Id>();
  for (const value of sent) {
    if (uuid ? typeof value === 'string' && UUID.test(value) : Number.isSafeInteger(value) && (value as number) > 0) {
      ids.add(uuid ? (value as string).toLowerCase() : (value as number));
    } else return { error: 'must be an array of ids' };
    if (ids.size > limit) return { error: `must hold at most ${limit} ids` };
  }
  const sorted = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { ids: sorted };
}

/**
 * The body without the many-to-many ids it sends, and those ids (distinct, ascending) by field;
 * `errors` names each field whose value is not an array of at most `limit` ids.
 *
 * @example
 * ```ts
 * takeIdSets(ctx, { title: 'Bug', labelIds: [3, 1, 3] }); // { body: { title: 'Bug' }, sets: { labelIds: [1, 3] }, errors: {} }
 * ```
 */
export function takeIdSets(
  ctx: Context,
  body: unknown,
): { body: unknown; sets: Record<string, Id[]>; errors: FieldErrors } {
  const sets: Record<string, Id[]> = {};
  const errors: FieldErrors = {};
  const { idSets } = ctx.compiled;
  const found = idSets.size > 0 ? members(ctx, body) : undefined;
  if (!found || ![...idSets.keys()].some((field) => Object.hasOwn(found, field))) return { body, sets, errors };
  const rest = { ...found };
  for (const [field, { relation, limit }] of idSets) {
    if (!Object.hasOwn(rest, field)) continue;
    const sent = rest[field];
    delete rest[field];
    const target = ctx.mounted?.self.relations.get(relation)?.target;
    const uuid = target?.schema.attributes[0]?.type === 'uuid';
    const result = idsOf(sent, uuid, limit);
    if ('error' in result) errors[field] = [result.error];
    else sets[field] = result.ids;
  }
  return { body: found === body ? rest : { [ctx.resource.name]: rest }, sets, errors };
}

/**
 * Checks the ids of each many-to-many set a write sends against what this caller may read of
 * the target (its access, archive and scope), in one query per set: an id of a record they may
 * not read, or of none, is the same 422 `does not exist`.
 *
 * @example
 * ```ts
 * await checkIdSets(ctx, { labelIds: [1, 2] }, errors); // errors.labelIds = ['does not exist'] when one is missing
 * ```
 */
export async function checkIdSets(
  ctx: Context,
  values: Readonly<Record<string, unknown>>,
  errors: FieldErrors,
): Promise<void> {
  const relations = ctx.mounted?.self.relations;
  if (!relations) return;
  for (const relation of relations.values()) {
    if (relation.kind !== 'manyToMany') continue;
    const sent = values[relation.foreignKey] as Id[] | undefined;
    if (!sent || sent.length === 0) continue;
    const { target } = relation;
    // Within a bulk write, ids already found (or missed) are not asked again.
    const seen = ctx.references;
    if (sent.some((id) => seen?.get(referenceKey(target, id)) === false)) {
      errors[relation.foreignKey] = ['does not exist'];
      continue;
    }
    const ids = seen ? sent.filter((id) => !seen.has(referenceKey(target, id))) : sent;
    if (ids.length === 0) continue;
    const found = await readableIds(ctx, target, relation.foreignKey, ids);
    if (found.size < ids.length) errors[relation.foreignKey] = ['does not exist'];
    for (const id of ids) seen?.set(referenceKey(target, id), found.has(String(id)));
  }
}

/** Throws the 422 of `errors` when there is one. */
export function throwErrors(errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) throw new ValidationError({ ...errors });
}
