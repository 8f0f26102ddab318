import { OPERATORS, type Operator } from '../contract/operators.js';
import { convertValue } from '../schema/convert.js';
import type { AttributeSchema, Scalar } from '../schema/types.js';
import type { Condition } from '../store/store.js';

/** The operators of a row rule on one attribute: `{ gte: 3 }`, `{ null: true }`. */
export type OperatorWhere = { readonly [O in Exclude<Operator, 'null'>]?: Scalar } & { readonly null?: boolean };

/** What a row rule says of one attribute: equal to a value, one of several, or operators. */
export type WhereValue = Scalar | readonly Scalar[] | OperatorWhere;

/**
 * The conditions a record must meet for a caller, computed from the principal by a row rule:
 * `{ orgId: principal.org }`, `{ status: ['open', 'done'] }`, `{ priority: { lte: 2 } }`, and
 * through a belongs-to relation, as `filter[relation.attr]` goes: `{ 'project.ownerId': principal.sub }`
 * (an index lookup of the related ids, never a per-row subquery).
 *
 * @example
 * ```ts
 * const mine: Where<Comment> = { authorId: 7, 'issue.status': ['open', 'in_progress'] };
 * ```
 */
export type Where<M = Record<string, unknown>> = { readonly [K in (keyof M & string) | 'id']?: WhereValue } & {
  readonly [path: `${string}.${string}`]: WhereValue | undefined;
};

/** What a rule's conditions are compiled against: one resource's attributes, and its belongs-to relations. */
export interface WhereTarget {
  readonly name: string;
  readonly attributes: ReadonlyMap<string, AttributeSchema>;
  /** The belongs-to relation of a name: its foreign key and its target's collection and attributes. */
  belongsTo(
    name: string,
  ): { readonly foreignKey: string; readonly collection: string; readonly target: WhereTarget } | undefined;
}

function fail(target: WhereTarget, message: string): never {
  throw new TypeError(`access rule of ${target.name}: ${message}`);
}

/** A value of the rule in the attribute's stored form (a number for an integer, "12.50" for a decimal...). */
function stored(target: WhereTarget, attribute: AttributeSchema, value: unknown): Scalar {
  if (value === null) return null;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    fail(target, `${attribute.name} is compared with ${JSON.stringify(value)}, which is not a value`);
  }
  const converted = convertValue(attribute, String(value));
  if (converted === undefined)
    fail(target, `${JSON.stringify(value)} is not a valid ${attribute.type} for ${attribute.name}`);
  return converted;
}

function isOperators(value: WhereValue): value is OperatorWhere {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The conditions of one attribute's entry. */
function entryConditions(target: WhereTarget, field: string, value: WhereValue): Condition[] {
  const attribute = target.attributes.get(field);
  if (!attribute) fail(target, `"${field}" is not a field of ${target.name}`);
  if (Array.isArray(value)) return [{ field, values: value.map((each) => stored(target, attribute, each)) }];
  if (!isOperators(value)) return [{ field, values: [stored(target, attribute, value)] }];
  const conditions: Condition[] = [];
  for (const [op, operand] of Object.entries(value)) {
    if (!(OPERATORS as readonly string[]).includes(op)) fail(target, `"${op}" is not an operator (on ${field})`);
    if (op === 'null') conditions.push({ field, values: [operand === true], op: 'null' });
    else if (op === 'eq') conditions.push({ field, values: [stored(target, attribute, operand)] });
    else conditions.push({ field, values: [stored(target, attribute, operand)], op: op as Exclude<Operator, 'eq'> });
  }
  return conditions;
}

/**
 * The store conditions of a row rule's answer. A name the resource does not have, or a value
 * its attribute cannot hold, is a mistake in the rule: a `TypeError` (a 500, logged).
 *
 * @example
 * ```ts
 * compileWhere({ orgId: 3, 'project.ownerId': 7 }, issues); // [{ field: 'orgId', values: [3] }, { field: 'projectId', values: [], related: ... }]
 * ```
 */
export function compileWhere(
  where: Readonly<Record<string, WhereValue | undefined>>,
  target: WhereTarget,
): Condition[] {
  const conditions: Condition[] = [];
  const related = new Map<string, Record<string, WhereValue | undefined>>();
  for (const [key, value] of Object.entries(where)) {
    if (value === undefined) continue;
    const dot = key.indexOf('.');
    if (dot === -1) {
      conditions.push(...entryConditions(target, key, value));
      continue;
    }
    const name = key.slice(0, dot);
    const entries = related.get(name) ?? {};
    entries[key.slice(dot + 1)] = value;
    related.set(name, entries);
  }
  for (const [name, entries] of related) {
    const relation = target.belongsTo(name);
    if (!relation) fail(target, `"${name}" is not a belongs-to relation of ${target.name}`);
    const inner = compileWhere(entries, relation.target);
    conditions.push({
      field: relation.foreignKey,
      values: [],
      related: { collection: relation.collection, where: inner },
    });
  }
  return conditions;
}
