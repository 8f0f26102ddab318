import type { QueryRules } from '../query/resolve-query.js';
import type { AttributeSchema } from '../schema/types.js';
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
