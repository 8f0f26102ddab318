import { HttpError } from '../errors/http-error.js';
import { parseMemberQuery } from '../query/parse-query.js';
import { matcher } from '../store/memory-filter.js';
import type { StoredRecord } from '../store/store.js';
import type { Context } from './context.js';
import type { RecordOf } from './context-types.js';

// Restoring an archived record: `PATCH /issues/5?archived=true` with `{"archivedAt": null}`. It is
// an update (its hooks, If-Match, the update rule), found among the archived records because it
// says `archived=true`, and clearing the archive field needs what destroying needs: the destroy
// rule, on this record.

type Rec = RecordOf<Record<string, unknown>>;

/** Whether a show or an update asks for `archived=true` (a 400 for a value other than true or false). */
export function asksArchived(ctx: Context): boolean {
  return parseMemberQuery(ctx.request.rawQuery, ctx.compiled.limits).archived === true;
}

/**
 * The body of an update that restores, without the archive field (the validation refuses it as
 * read-only): an update of a resource that archives, asking `archived=true`, whose body sends the
 * archive field as `null` (flat, or under the singular key). `undefined` for any other update.
 */
export function restoreBody(ctx: Context, body: unknown): Record<string, unknown> | undefined {
  const field = ctx.compiled.archive;
  if (!field || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const object = body as Record<string, unknown>;
  const keys = Object.keys(object);
  const key = ctx.resource.name;
  const wrapped = keys.length === 1 && keys[0] === key && !ctx.compiled.attributes.has(key);
  const inner = wrapped ? object[key] : object;
  if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) return undefined;
  const members = inner as Record<string, unknown>;
  if (!Object.hasOwn(members, field) || members[field] !== null || !asksArchived(ctx)) return undefined;
  const { [field]: _, ...rest } = members;
  return wrapped ? { [key]: rest } : rest;
}

/**
 * Whether this caller may restore the record read: what the destroy rule says for them, on this
 * record (tenancy is already in `ctx.where`). A 403 naming the archive field otherwise; the
 * rule's conditions then guard the write too, as the update rule's do.
 */
export async function checkRestoreRule(ctx: Context, record: Rec): Promise<void> {
  const access = ctx.mounted?.self.access;
  const field = ctx.compiled.archive as string;
  if (!access?.restricted) return;
  const refuse = () =>
    new HttpError(403, 'forbidden', {
      detail: `You may not restore this ${ctx.resource.name}: only who may destroy it may`,
      errors: { [field]: ['may not be changed by you'] },
    });
  const rule = access.decide('destroy', ctx.principal);
  if (rule === false) throw refuse();
  if (rule.length === 0) return;
  const related = rule.some((condition) => condition.related !== undefined);
  const held = related
    ? (await ctx.compiled.steps.find(
        Object.assign(Object.create(ctx) as Context, { where: [...ctx.where, ...rule] }),
      )) !== undefined
    : matcher(rule)(record as StoredRecord);
  if (!held) throw refuse();
  ctx.where = [...ctx.where, ...rule];
}
