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
  /** The relations to add to each record (`include=`), checked against the resource's. */
  include: string[];
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
  /** The names `include=` accepts. */
  readonly relations: ReadonlySet<string>;
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
    const schema = rules.attributes.get(attribute) as AttributeSchema;
    const converted = values.map((value) => {
      const result = convertValue(schema, value);
      if (result === undefined) {
        throw invalid(`${parameter}: "${echo(value)}" is not a valid ${describeType(schema)}`);
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
  return {
    where,
    order,
    page: raw.page ?? 1,
    perPage,
    count: raw.count ?? rules.count,
    include: checkInclude(raw.include, rules.relations),
  };
}

/** The `include` names, each a relation of the resource (else a 400 naming it). */
export function checkInclude(names: readonly string[] | undefined, relations: ReadonlySet<string>): string[] {
  for (const name of names ?? []) {
    if (!relations.has(name)) {
      const list = [...relations].join(', ') || 'none';
      throw invalid(`include: "${echo(name)}" is not a relation of this resource (relations: ${list})`);
    }
  }
  return names ? [...names] : [];
}

/** How a 400 names the type a filter value must have. */
function describeType({ type, scale }: AttributeSchema): string {
  if (type === 'decimal') return `decimal with at most ${scale ?? 0} places`;
  if (type === 'date-time') return 'RFC 3339 date-time';
  if (type === 'date') return 'date (YYYY-MM-DD)';
  return type;
}
