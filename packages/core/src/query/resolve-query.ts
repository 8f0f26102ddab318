import { echo } from '../errors/echo.js';
import type { Condition, Order } from '../store/store.js';
import type { RawIndexQuery } from './parse-query.js';
import { checkName, type FilterRules, invalid, type RelatedLookup, resolveFilter } from './resolve-filter.js';
import { searchCondition } from './resolve-search.js';

/** An index query after it was checked against the resource. Hooks may change it. */
export interface IndexQuery {
  /** ANDed conditions from `filter[...]`. */
  where: Condition[];
  /** Complete order, ending with `id`. */
  order: Order[];
  page: number;
  perPage: number;
  /** Whether the total is counted (`X-Total-Count`, `last` link), or may be estimated past a threshold (`estimated`). */
  count: boolean | 'estimated';
  /** The relations to add to each record (`include=`), checked against the resource's. */
  include: string[];
  /** The attributes to answer (`fields=`), or `undefined` for all of them. */
  fields: string[] | undefined;
  /** Cursor pagination: the raw `after` cursor of the request (checked when the page is listed). */
  after: string | undefined;
  /** `archived=true`: archived records are listed too (on a resource that archives). */
  archived: boolean;
}

/** What a resource allows in an index query. */
export interface QueryRules extends FilterRules {
  readonly sortable: ReadonlySet<string>;
  readonly defaultSort: RawIndexQuery['sort'];
  readonly perPage: { readonly default: number; readonly max: number };
  /** Whether the total is counted when the request does not say (`count=`). */
  readonly count: boolean | 'estimated';
  /** The most matches `count=estimated` counts exactly (the store may estimate past them). */
  readonly estimateAbove: number;
  /** The names `include=` accepts. */
  readonly relations: ReadonlySet<string>;
  /** The attributes `fields=` may name (those responses show). */
  readonly fields: ReadonlySet<string>;
  /** `cursor`: pages follow `after` cursors (keyset), and `page` is refused. */
  readonly pagination: 'page' | 'cursor';
  /** The fields `q=` searches (for this caller: the declared ones they may read); `q` is refused when none were declared. */
  readonly search?: readonly string[];
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
export function resolveIndexQuery(raw: RawIndexQuery, rules: QueryRules, related?: RelatedLookup): IndexQuery {
  const where: Condition[] = raw.filters.map((filter) => resolveFilter(filter, rules, related));
  if (raw.q !== undefined) where.push(searchCondition(raw.q, rules.search));
  const cursor = rules.pagination === 'cursor';
  if (cursor && raw.page !== undefined)
    throw invalid('page is not accepted here: follow the `next` link (cursor pagination, `after=`)');
  if (!cursor && raw.after !== undefined) throw invalid('after is not accepted here: this resource pages with `page=`');
  for (const field of raw.fields ?? []) checkName('fields', field, rules.fields);

  const order: Order[] = [];
  const sorted = new Set<string>();
  for (const { attribute, descending } of raw.sort ?? rules.defaultSort ?? []) {
    // The resource's own default order is checked when it is declared, not against `sort`'s list.
    if (raw.sort) checkName('sort', attribute, rules.sortable);
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
    count: raw.count ?? (cursor ? false : rules.count),
    include: checkInclude(raw.include, rules.relations),
    fields: raw.fields,
    after: raw.after,
    archived: raw.archived ?? false,
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
