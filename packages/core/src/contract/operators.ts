/**
 * The filter operators of `filter[attr][op]=value` (CONTRACT part 3). `eq` is also
 * `filter[attr]=value`; comparisons never match `null`; `null=true|false` finds the records
 * with or without a value.
 *
 * @example
 * ```ts
 * OPERATORS.includes('gte'); // true
 * ```
 */
export const OPERATORS = Object.freeze(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'prefix', 'contains', 'null'] as const);

/** A filter operator. */
export type Operator = (typeof OPERATORS)[number];

/** The types that order (numbers, decimals, dates, strings by code point, uuids). */
const ORDERED = new Set(['integer', 'number', 'decimal', 'date-time', 'date', 'string', 'uuid']);

/**
 * The operators an attribute allows by default: every type has `eq` and `ne`; the ordered
 * types also `gt gte lt lte`; strings also `prefix` and `contains` (literal, case-sensitive);
 * nullable attributes also `null`. JSON attributes have none. One table for the parser, the
 * stores and the OpenAPI document.
 *
 * @example
 * ```ts
 * operatorsFor('boolean', true); // ['eq', 'ne', 'null']
 * ```
 */
export function operatorsFor(type: string, nullable: boolean): Operator[] {
  if (type === 'json') return [];
  const allowed: Operator[] = ['eq', 'ne'];
  if (ORDERED.has(type)) allowed.push('gt', 'gte', 'lt', 'lte');
  if (type === 'string') allowed.push('prefix', 'contains');
  if (nullable) allowed.push('null');
  return allowed;
}
