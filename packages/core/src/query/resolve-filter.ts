import { OPERATORS, type Operator } from '../contract/operators.js';
import { FORBIDDEN_NAMES } from '../contract/problems.js';
import { echo } from '../errors/echo.js';
import { BadRequestError } from '../errors/http-error.js';
import { convertValue } from '../schema/convert.js';
import type { AttributeSchema } from '../schema/types.js';
import type { Condition } from '../store/store.js';
import type { RawFilter } from './parse-query.js';

/** What `filter[...]` may use on a resource. */
export interface FilterRules {
  readonly attributes: ReadonlyMap<string, AttributeSchema>;
  readonly filterable: ReadonlySet<string>;
  /** The operators each filterable attribute allows. */
  readonly operators: ReadonlyMap<string, readonly Operator[]>;
}

/** A belongs-to relation `filter[relation.attr]` may go through: its key, and the target's rules. */
export interface RelatedFilter {
  readonly foreignKey: string;
  /** The target's collection name. */
  readonly collection: string;
  /** What the caller may filter on of the target (its fields they may read). */
  readonly rules: FilterRules;
  /** The conditions of the target's records the caller may read: a filter never matches through others. */
  readonly where?: readonly Condition[];
  /**
   * A many-to-many relation: the join collection whose `key` holds the record's id and `value`
   * the target's (then `foreignKey` is the field of the ids, not filtered on itself).
   */
  readonly through?: { readonly collection: string; readonly key: string; readonly value: string };
}

/** Finds the belongs-to relation of a name, and lists them for a 400. */
export interface RelatedLookup {
  (name: string): RelatedFilter | undefined;
  readonly names: readonly string[];
}

export function invalid(detail: string): BadRequestError {
  return new BadRequestError(detail, 'invalid_query');
}

/** 400 unless `name` is one of `allowed`, listing them. */
export function checkName(parameter: string, name: string, allowed: ReadonlySet<string>): void {
  if (FORBIDDEN_NAMES.has(name) || !allowed.has(name)) {
    const list = [...allowed].join(', ') || 'none';
    throw invalid(`${parameter}: "${echo(name)}" is not an attribute that can be used here (allowed: ${list})`);
  }
}

/** How a 400 names the type a filter value must have. */
function describeType({ type, scale }: AttributeSchema): string {
  if (type === 'decimal') return `decimal with at most ${scale ?? 0} places`;
  if (type === 'date-time') return 'RFC 3339 date-time';
  if (type === 'date') return 'date (YYYY-MM-DD)';
  return type;
}

/**
 * Checks one `filter[...]` against the resource's rules and converts its values: the attribute
 * (or a belongs-to relation's, through `related`), the operator and its operand. A 400 names the
 * parameter exactly as the client sent it (`filter[author.nope][gt]`, never the inner
 * `filter[nope][gt]`) and what it accepts.
 *
 * @example
 * ```ts
 * resolveFilter({ attribute: 'year', values: ['1950'], array: false, op: 'gte' }, rules);
 * // { field: 'year', values: [1950], op: 'gte' }
 * ```
 */
export function resolveFilter(filter: RawFilter, rules: FilterRules, related?: RelatedLookup): Condition {
  const { attribute, array } = filter;
  const parameter = `filter[${echo(attribute, 50)}]${array ? '[]' : filter.op ? `[${echo(filter.op, 20)}]` : ''}`;
  const dot = attribute.indexOf('.');
  if (dot === -1) return resolveOwn(filter, attribute, rules, parameter);
  const name = attribute.slice(0, dot);
  const relation = related?.(name);
  if (!relation) {
    const list = related?.names.join(', ') || 'none';
    throw invalid(
      `${parameter}: "${echo(name, 50)}" is not a belongs-to relation (nor a many-to-many one) of this resource (relations: ${list})`,
    );
  }
  const inner = attribute.slice(dot + 1);
  if (inner.includes('.')) {
    throw invalid(`${parameter}: a filter crosses at most one relation ("${echo(name, 50)}.${echo(inner, 50)}")`);
  }
  const condition = resolveOwn(filter, inner, relation.rules, parameter, `${name}.`);
  const where = relation.where ? [condition, ...relation.where] : [condition];
  const target = { collection: relation.collection, where };
  const { through } = relation;
  if (!through) return { field: relation.foreignKey, values: [], related: target };
  // Records linked to a matching one: `id IN (SELECT key FROM join WHERE value IN (SELECT id FROM target WHERE …))`.
  const linked: Condition = { field: through.value, values: [], related: target };
  return { field: 'id', values: [], related: { collection: through.collection, key: through.key, where: [linked] } };
}

/**
 * The condition on an attribute of `rules`' resource itself; `parameter` is what a 400 names and
 * `path` what comes before the attribute's name in it (`author.` through a relation).
 */
function resolveOwn(filter: RawFilter, attribute: string, rules: FilterRules, parameter: string, path = ''): Condition {
  const { values, op = 'eq' } = filter;
  checkName(parameter, attribute, rules.filterable);
  const schema = rules.attributes.get(attribute) as AttributeSchema;
  if (!(OPERATORS as readonly string[]).includes(op)) {
    throw invalid(`${parameter}: "${echo(op, 20)}" is not an operator (operators: ${OPERATORS.join(', ')})`);
  }
  const allowed = rules.operators.get(attribute) ?? [];
  if (!allowed.includes(op as Operator)) {
    throw invalid(
      `${parameter}: "${op}" does not apply to ${path}${attribute} (${schema.type}${schema.nullable ? ', nullable' : ''}); it takes: ${allowed.join(', ') || 'no operator'}`,
    );
  }
  if (op === 'null') {
    const [value] = values;
    if (value !== 'true' && value !== 'false')
      throw invalid(`${parameter} must be true or false (got "${echo(value ?? '')}")`);
    return { field: attribute, values: [value === 'true'], op: 'null' };
  }
  const converted = values.map((value) => {
    const result = convertValue(schema, value);
    if (result === undefined) throw invalid(`${parameter}: "${echo(value)}" is not a valid ${describeType(schema)}`);
    return result;
  });
  return op === 'eq'
    ? { field: attribute, values: converted }
    : { field: attribute, values: converted, op: op as Exclude<Operator, 'eq'> };
}
