import type { ActionName } from '../contract/actions.js';
import type { QueryRules } from '../query/resolve-query.js';
import type { AttributeSchema } from '../schema/types.js';
import { ESTIMATE_ABOVE } from '../store/estimate-above.js';
import type { ResourceOptions } from './options.js';

// Checks of declared options that stand on their own; a mistake throws at start-up.

/**
 * The declared `search` fields, checked at start-up: each a string attribute, named once.
 *
 * @example
 * ```ts
 * searchFields('issue', ['title', 'body'], attributes); // ['title', 'body']
 * ```
 */
export function searchFields(
  name: string,
  declared: readonly string[] | undefined,
  attributes: ReadonlyMap<string, AttributeSchema>,
): string[] {
  if (declared === undefined) return [];
  if (!Array.isArray(declared) || declared.length === 0) {
    throw new TypeError(`defineResource(${name}): search must be a non-empty list of string fields`);
  }
  for (const [at, field] of declared.entries()) {
    const attribute = attributes.get(field);
    if (attribute?.type !== 'string') {
      const what = attribute ? `not a string field (it holds ${attribute.type} values)` : 'not a field';
      throw new TypeError(
        `defineResource(${name}): search names "${field}", which is ${what}: only string fields can be searched`,
      );
    }
    if (declared.indexOf(field) !== at) throw new TypeError(`defineResource(${name}): search names "${field}" twice`);
  }
  return [...declared];
}

/**
 * The declared `perPage`, checked: `1 <= default <= max`.
 *
 * @example
 * ```ts
 * checkedPerPage('book', { max: 50 }); // { default: 25, max: 50 }
 * ```
 */
export function checkedPerPage(
  name: string,
  perPage: ResourceOptions<unknown, unknown>['perPage'],
): QueryRules['perPage'] {
  const checked = { default: perPage?.default ?? 25, max: perPage?.max ?? 100 };
  const { default: first, max } = checked;
  if (!(Number.isSafeInteger(first) && Number.isSafeInteger(max) && first >= 1 && first <= max)) {
    throw new TypeError(`defineResource(${name}): perPage needs 1 <= default <= max (got ${JSON.stringify(checked)})`);
  }
  return checked;
}

/**
 * The declared `count` and `estimateCountsAbove`, checked: whether the index counts by default,
 * and the most matches `count=estimated` counts exactly (a positive integer, default 10,000);
 * `keepCount`, a boolean, is only checked (the schema carries it to the store).
 *
 * @example
 * ```ts
 * countRules('event', { count: 'estimated', estimateCountsAbove: 50_000 }); // { count: 'estimated', estimateAbove: 50000 }
 * ```
 */
export function countRules(
  name: string,
  {
    count = true,
    estimateCountsAbove = ESTIMATE_ABOVE,
    keepCount = false,
  }: Pick<ResourceOptions<unknown, unknown>, 'count' | 'estimateCountsAbove' | 'keepCount'>,
): Pick<QueryRules, 'count' | 'estimateAbove'> {
  if (count !== true && count !== false && count !== 'estimated') {
    throw new TypeError(`defineResource(${name}): count must be true, false or 'estimated' (got ${String(count)})`);
  }
  if (!(Number.isSafeInteger(estimateCountsAbove) && estimateCountsAbove >= 1)) {
    throw new TypeError(
      `defineResource(${name}): estimateCountsAbove must be a positive integer (got ${String(estimateCountsAbove)})`,
    );
  }
  if (typeof keepCount !== 'boolean') {
    throw new TypeError(`defineResource(${name}): keepCount must be true or false (got ${String(keepCount)})`);
  }
  return { count, estimateAbove: estimateCountsAbove };
}

/**
 * The declared `bulk`, checked: the most records one bulk write takes (default 100, at most 10,000).
 *
 * @example
 * ```ts
 * bulkOf('issue', { max: 50 }); // { max: 50 }
 * ```
 */
export function bulkOf(name: string, bulk: ResourceOptions<unknown, unknown>['bulk']): { max: number } | undefined {
  if (bulk === undefined) return undefined;
  const max = bulk === true ? 100 : (bulk.max ?? 100);
  if (!(Number.isSafeInteger(max) && max >= 1 && max <= 10_000)) {
    throw new TypeError(`defineResource(${name}): bulk.max must be an integer from 1 to 10000 (got ${String(max)})`);
  }
  return { max };
}

/**
 * The declared `upsert` keys, checked: each an attribute that is unique on its own.
 *
 * @example
 * ```ts
 * upsertKeys('label', ['name'], [['name']]); // Set { 'name' }
 * ```
 */
export function upsertKeys(
  name: string,
  declared: readonly string[] | undefined,
  unique: readonly (readonly string[])[],
): ReadonlySet<string> {
  for (const field of declared ?? []) {
    if (!unique.some((set) => set.length === 1 && set[0] === field)) {
      throw new TypeError(
        `defineResource(${name}): upsert names "${field}", which must be unique on its own (declare unique: ['${field}'])`,
      );
    }
  }
  return new Set(declared);
}

/**
 * Whether the declaration opts in to an action that is off by default: `stats` with `stats:`,
 * `events` with `live: true`; every other action is in.
 *
 * @example
 * ```ts
 * optedIn('events', { live: true }); // true
 * ```
 */
export function optedIn(action: ActionName, options: { readonly stats?: unknown; readonly live?: boolean }): boolean {
  if (action === 'stats') return options.stats !== undefined;
  if (action === 'events') return options.live === true;
  return true;
}

/**
 * The declared `archive` field, checked: a nullable date-time.
 *
 * @example
 * ```ts
 * archiveField('issue', 'archivedAt', attributes); // 'archivedAt'
 * ```
 */
export function archiveField(
  name: string,
  declared: string | undefined,
  attributes: ReadonlyMap<string, AttributeSchema>,
): string | undefined {
  if (declared === undefined) return undefined;
  const attribute = attributes.get(declared);
  if (attribute?.type !== 'date-time' || !attribute.nullable) {
    throw new TypeError(
      `defineResource(${name}): archive names "${declared}", which must be a nullable date-time field`,
    );
  }
  return declared;
}
