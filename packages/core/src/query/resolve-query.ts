import { FORBIDDEN_NAMES } from '../contract/problems.js';
import { echo } from '../errors/echo.js';
import { BadRequestError } from '../errors/http-error.js';
import { convertValue } from '../schema/convert.js';
import type { AttributeSchema } from '../schema/types.js';
import type { Condition, Order } from '../store/store.js';
import type { RawIndexQuery } from './parse-query.js';

/** An index query after it was checked against the resource. Hooks may change it. */
export interface IndexQuery {
  /** ANDed conditions from `filter[...]`. */
  where: Condition[];
  /** Complete order, ending with `id`. */
  order: Order[];
  page: number;
  perPage: number;
  /** Whether the total is counted (`X-Total-Count`, `last` link). */
  count: boolean;
}

/** What a resource allows in an index query. */
export interface QueryRules {
  readonly attributes: ReadonlyMap<string, AttributeSchema>;
  readonly filterable: ReadonlySet<string>;
  readonly sortable: ReadonlySet<string>;
  readonly defaultSort: RawIndexQuery['sort'];
  readonly perPage: { readonly default: number; readonly max: number };
  /** Whether the total is counted when the request does not say (`count=`). */
  readonly count: boolean;
}

function invalid(detail: string): BadRequestError {
  return new BadRequestError(detail, 'invalid_query');
}

function checkName(parameter: string, name: string, allowed: ReadonlySet<string>): void {
  if (FORBIDDEN_NAMES.has(name) || !allowed.has(name)) {
    const list = [...allowed].join(', ') || 'none';
    throw invalid(`${parameter}: "${echo(name)}" is not an attribute that can be used here (allowed: ${list})`);
  }
}

/**
 * Checks a parsed index query against a resource's rules and converts filter values to the
 * attributes' types. Throws a 400 naming the parameter on any unknown or disallowed attribute,
 * unconvertible value or out-of-range `per_page`.
 *
 * @example
 * ```ts
 * const query = resolveIndexQuery(parseIndexQuery('filter[id]=7&sort=name'), rules);
 * // query.where = [{ field: 'id', values: [7] }], query.order = [{ field: 'name', ... }, { field: 'id', ... }]
 * ```
 */
export function resolveIndexQuery(raw: RawIndexQuery, rules: QueryRules): IndexQuery {
  const where: Condition[] = raw.filters.map(({ attribute, values, array }) => {
    const parameter = `filter[${echo(attribute, 50)}]${array ? '[]' : ''}`;
    checkName(parameter, attribute, rules.filterable);
    const type = (rules.attributes.get(attribute) as AttributeSchema).type;
    const converted = values.map((value) => {
      const result = convertValue(type, value);
      if (result === undefined) {
        throw invalid(`${parameter}: "${echo(value)}" is not a valid ${type}`);
      }
      return result;
    });
    return { field: attribute, values: converted };
  });

  const order: Order[] = [];
  const sorted = new Set<string>();
  for (const { attribute, descending } of raw.sort ?? rules.defaultSort ?? []) {
    checkName('sort', attribute, rules.sortable);
    if (sorted.has(attribute)) throw invalid(`sort: "${attribute}" is listed more than once`);
    sorted.add(attribute);
    order.push({ field: attribute, direction: descending ? 'desc' : 'asc' });
  }
  if (!sorted.has('id')) order.push({ field: 'id', direction: 'asc' });

  const perPage = raw.perPage ?? rules.perPage.default;
  if (perPage > rules.perPage.max) throw invalid(`per_page must be at most ${rules.perPage.max} (got ${perPage})`);
  return { where, order, page: raw.page ?? 1, perPage, count: raw.count ?? rules.count };
}
