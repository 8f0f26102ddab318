import { echo } from '../errors/echo.js';
import { pairs } from './parse-query.js';
import { checkName, invalid } from './resolve-filter.js';

/** The aggregates a statistics request asks for, each a list of attribute names. */
export type StatsKind = 'sum' | 'min' | 'max';

/** The parameters of a statistics request of their own (its filters are the index's). */
export interface StatsQuery {
  /** 0 to 3 attributes whose values make the groups. */
  group: string[];
  sum: string[];
  min: string[];
  max: string[];
}

/** What one caller may name in each parameter of a statistics request. */
export type StatsAllowed = Readonly<Record<'group' | StatsKind, ReadonlySet<string>>>;

/** The most attributes `group` takes. */
export const MAX_GROUP_ATTRIBUTES = 3;

/** The 400 of an index parameter that statistics (live events) do not take. */
function refused(key: string, what: string) {
  return invalid(`${key} is not accepted by ${what} (they take filter, archived and q)`);
}

/**
 * The 400 of the first index parameter that only an index takes (`sort`, `page`, `per_page`,
 * `include`, `fields`, `after`, `count`), for the requests that take the index's filters alone.
 *
 * @example
 * ```ts
 * refuseIndexOnly('filter[status]=open&sort=title', 'live events'); // throws: sort is not accepted by live events …
 * ```
 */
export function refuseIndexOnly(rawQuery: string, what: string): void {
  if (rawQuery === '') return;
  for (const [key] of pairs(rawQuery)) if (REFUSED.has(key)) throw refused(key, what);
}

/** Index parameters a statistics request does not take: 400 naming them. */
const REFUSED = new Set(['sort', 'page', 'per_page', 'include', 'fields', 'after', 'count']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Reads `group`, `sum`, `min` and `max` of a statistics request (`GET /issues/stats`) and checks
 * each name against what this caller may use (a field hidden from them is refused exactly as one
 * that does not exist). The index's `filter[...]`, `q` and `archived` are left to the index's own
 * resolution; `sort`, `page`, `per_page`, `include`, `fields`, `after` and `count` are a 400
 * naming them.
 *
 * @example
 * ```ts
 * parseStatsQuery('group=status&sum=estimate&filter[projectId]=7', allowed);
 * // { group: ['status'], sum: ['estimate'], min: [], max: [] }
 * ```
 */
export function parseStatsQuery(rawQuery: string, allowed: StatsAllowed): StatsQuery {
  const found: Partial<StatsQuery> = {};
  for (const [key, value] of pairs(rawQuery)) {
    if (REFUSED.has(key)) throw refused(key, 'statistics');
    if (key !== 'group' && key !== 'sum' && key !== 'min' && key !== 'max') continue;
    if (found[key]) throw invalid(`${key} is given more than once: list its attributes comma-separated`);
    const names = value.split(',');
    for (const name of names) {
      if (!NAME.test(name))
        throw invalid(`${key} must be a comma-separated list of attribute names (got "${echo(value)}")`);
      checkName(key, name, allowed[key]);
    }
    const twice = names.find((name, index) => names.indexOf(name) !== index);
    if (twice !== undefined) throw invalid(`${key} names the attribute "${echo(twice, 40)}" more than once`);
    if (key === 'group' && names.length > MAX_GROUP_ATTRIBUTES) {
      throw invalid(`group takes at most ${MAX_GROUP_ATTRIBUTES} attributes (got ${names.length})`);
    }
    found[key] = names;
  }
  return { group: found.group ?? [], sum: found.sum ?? [], min: found.min ?? [], max: found.max ?? [] };
}
