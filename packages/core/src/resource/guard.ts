import { type RuleKind, ruleOf } from '../access/resource-access.js';
import { HttpError, UnauthorizedError, ValidationError } from '../errors/http-error.js';
import type { AttributeSchema, StoredValue } from '../schema/types.js';
import { matcher } from '../store/memory-filter.js';
import type { Condition, StoredRecord } from '../store/store.js';
import type { Context } from './context.js';
import type { RecordOf } from './context-types.js';
import { checkIdSets } from './id-sets.js';
import { canonicalValue } from './input/typed-value.js';
import { guardsReads, readableWhere, referenceKey } from './readable-ids.js';

// The questions the lifecycle asks the access model at its named stages (docs/access.md has
// them in one table): may this caller take this action at all; may they change this record;
// may they write these fields; do the records their body names exist for them.

type Rec = RecordOf<Record<string, unknown>>;

const VERBS: Record<RuleKind, string> = { read: 'read', create: 'create', update: 'change', destroy: 'destroy' };

/** The 401 of a caller without a principal where one is needed. */
export function authenticationRequired(): UnauthorizedError {
  return new UnauthorizedError('Authentication is required: send Authorization: Bearer <token>', {
    'WWW-Authenticate': 'Bearer',
  });
}

function forbidden(detail: string, errors?: Record<string, string[]>): HttpError {
  return new HttpError(403, 'forbidden', errors ? { detail, errors } : { detail });
}

/**
 * Before anything else of the action: a caller without a principal where the action needs one
 * is 401; a caller whose rules never let them take the action (or read the records it is taken
 * on) is 403. Keeps what the rules decided on the context: the conditions of the records the
 * caller reads, and those of the records the action may change.
 */
export function admit(ctx: Context): void {
  const access = ctx.mounted?.self.access;
  if (!access) return;
  const { principal, action } = ctx;
  if (principal === undefined && !access.anonymous(action)) throw authenticationRequired();
  if (!access.restricted) return;
  const kind = ruleOf(action);
  const read = access.decide('read', principal);
  const own = kind === 'read' ? read : access.decide(kind, principal);
  if (own === false || (read === false && kind !== 'create')) {
    // Without a principal where the API could have found one, the caller has yet to authenticate.
    if (principal === undefined && access.api.authenticates) throw authenticationRequired();
    throw forbidden(`You may not ${VERBS[kind]} ${ctx.resource.plural}`);
  }
  ctx.reads = read === false ? [] : read;
  ctx.rule = kind === 'read' ? [] : own;
}

/**
 * Whether the record read may be changed (update) or destroyed by this caller: a 403 when the
 * action's own conditions do not hold for it. They then guard the write too, so that it holds
 * only while they do.
 */
export async function checkRecordRule(ctx: Context, record: Rec): Promise<void> {
  const { rule } = ctx;
  if (rule.length === 0) return;
  const held = rule.some((condition) => condition.related !== undefined)
    ? (await ctx.compiled.steps.find(withWhere(ctx, rule))) !== undefined
    : matcher(rule)(record as StoredRecord);
  if (!held) throw forbidden(`You may not ${VERBS[ruleOf(ctx.action)]} this ${ctx.resource.name}`);
  ctx.where = [...ctx.where, ...rule];
}

/** The context with more conditions, for one look-up. */
function withWhere(ctx: Context, more: readonly Condition[]): Context {
  return Object.assign(Object.create(ctx) as Context, { where: [...ctx.where, ...more] });
}

/** The members of a body, unwrapped from the singular key as validation unwraps them. */
function membersOf(ctx: Context, body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const object = body as Record<string, unknown>;
  const inner = object[ctx.resource.name];
  const keys = Object.keys(object);
  const wrapped = keys.length === 1 && keys[0] === ctx.resource.name && !ctx.compiled.attributes.has(ctx.resource.name);
  return wrapped && typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : object;
}

/** Whether a value sent is the one stored (in the attribute's canonical form). */
function unchanged(attribute: AttributeSchema | undefined, sent: unknown, stored: StoredValue | undefined): boolean {
  if (!attribute) return false;
  const value = sent === null ? null : canonicalValue(attribute, sent);
  if (value === undefined) return false;
  const before = stored ?? null;
  return typeof value === 'object' && value !== null
    ? JSON.stringify(value) === JSON.stringify(before)
    : value === before;
}

/**
 * The fields of a body this caller may not write: a 403 whose `errors` names each, before the
 * body is validated. On update a field sent with its stored value passes.
 */
export function checkFieldRules(ctx: Context, body: unknown, stored?: Rec): void {
  const denied = ctx.action === 'create' ? ctx.view.noCreate : ctx.view.noUpdate;
  if (denied.size === 0) return;
  const members = membersOf(ctx, body);
  const errors: Record<string, string[]> = {};
  for (const field of denied) {
    if (!Object.hasOwn(members, field)) continue;
    const attribute = ctx.compiled.attributes.get(field);
    if (stored && unchanged(attribute, members[field], stored[field] as StoredValue)) continue;
    errors[field] = [ctx.action === 'create' ? 'may not be set by you' : 'may not be changed by you'];
  }
  const fields = Object.keys(errors);
  if (fields.length > 0) throw forbidden(`You may not ${VERBS[ruleOf(ctx.action)]} ${fields.join(', ')}`, errors);
}

/**
 * The values of a create with those the server sets from the principal (the tenant's key, the
 * presets), then checked against the create rule's conditions (403 when they do not hold).
 */
export function withPresets(ctx: Context, values: Record<string, unknown>): Record<string, unknown> {
  const presets = ctx.mounted?.self.access.presets(ctx.principal);
  const all = presets ? { ...values, ...presets } : values;
  if (ctx.rule.length > 0) {
    const local = ctx.rule.filter((condition) => condition.related === undefined);
    if (local.length < ctx.rule.length || !matcher(local)(all as StoredRecord)) {
      throw forbidden(`You may not create this ${ctx.resource.name}`);
    }
  }
  return all;
}

/**
 * The foreign keys of the values a write sets, each checked against what this caller may read
 * of its target (the target's access, archive and scope): a record they may not read is the 422
 * `does not exist` of a record that exists nowhere, byte for byte; so are the ids of each
 * many-to-many relation (`labelIds`, see `checkIdSets`).
 */
export async function checkReferences(ctx: Context, values: Readonly<Record<string, unknown>>): Promise<void> {
  const relations = ctx.mounted?.self.relations;
  if (!relations) return;
  const errors: Record<string, string[]> = {};
  for (const relation of relations.values()) {
    if (relation.kind !== 'belongsTo') continue;
    const value = values[relation.foreignKey];
    const { target } = relation;
    if (value === undefined || value === null) continue;
    if (!guardsReads(target)) continue; // the store's foreign key answers the same 422
    const key = referenceKey(target, value);
    let found = ctx.references?.get(key);
    if (found === undefined) {
      const where = await readableWhere(ctx, target, relation.foreignKey);
      found = !!where && !!(await ctx.collectionOf(target.compiled.resource).find(value as string | number, where));
      ctx.references?.set(key, found);
    }
    if (!found) errors[relation.foreignKey] = ['does not exist'];
  }
  await checkIdSets(ctx, values, errors);
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}
