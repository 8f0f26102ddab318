import { DEFAULT_LIMITS, type Limits } from '../contract/limits.js';
import { echo } from '../errors/echo.js';
import { BadRequestError, HttpError } from '../errors/http-error.js';

/**
 * One `filter[attr]` (`array: false`), `filter[attr][]` (`array: true`) or `filter[attr][op]`
 * (`op` set) parameter. `attr` may name a relation's attribute (`author.country`).
 */
export interface RawFilter {
  readonly attribute: string;
  readonly values: string[];
  readonly array: boolean;
  readonly op?: string;
}

/** The index parameters of a query string, checked for syntax only. */
export interface RawIndexQuery {
  readonly filters: RawFilter[];
  readonly sort?: { readonly attribute: string; readonly descending: boolean }[];
  readonly page?: number;
  readonly perPage?: number;
  /**
   * `count=false` skips the total (no `X-Total-Count`, no `last` link); `count=true` asks for it;
   * `count=estimated` lets the store estimate it past a threshold (`X-Total-Count-Estimate`).
   */
  readonly count?: boolean | 'estimated';
  /** `include=author,reviews` (or `include=author&include=reviews`): the relations to add to each record. */
  readonly include?: string[];
  /** `fields=title,year` (or `fields=title&fields=year`): the attributes to answer (with `id`). */
  readonly fields?: string[];
  /** `after=CURSOR`: the page after the one that ended with this (opaque) cursor. */
  readonly after?: string;
  /** `archived=true`: archived records too, on a resource that archives instead of destroying. */
  readonly archived?: boolean;
  /** `q=login crash`: the search, as sent. */
  readonly q?: string;
}

const FILTER_KEY = /^filter\[([^[\]]*)\](?:\[([^[\]]*)\])?$/;
const SORT_KEY = /^-?[A-Za-z_][A-Za-z0-9_]*$/;
const POSITIVE_INTEGER = /^[1-9][0-9]*$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function invalid(detail: string): BadRequestError {
  return new BadRequestError(detail, 'invalid_query');
}

function decode(component: string): string {
  // Most components hold neither an escape nor a `+`: they decode to themselves.
  if (!component.includes('%') && !component.includes('+')) return component;
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    throw invalid(`The query string has a malformed percent-encoding: "${echo(component)}"`);
  }
}

function positiveInteger(name: string, value: string): number {
  const number = Number(value);
  if (!POSITIVE_INTEGER.test(value) || !Number.isSafeInteger(number)) {
    throw invalid(`${name} must be a positive integer (got "${echo(value)}")`);
  }
  return number;
}

/**
 * Parses the index parameters out of a raw query string (`filter[a]=x&filter[b][]=y&sort=a,-b
 * &page=2&per_page=10`), whatever the web framework's own query parser would do. Keys and values
 * are percent-decoded (`+` is a space). Other parameters are ignored. A repeated `include` or
 * `fields` adds to its list (`include=a&include=b` is `include=a,b`, as clients that explode
 * arrays send it). Throws a 400 {@link BadRequestError} for malformed syntax: `filter=x`,
 * `filter[a][b]=x`, `sort=-`, `sort=a,,b`, a repeated `sort`/`page`/`per_page`/`count`/`after`/
 * `filter[a]`, a name given twice in `include` or `fields`, a non-positive `page`.
 *
 * @example
 * ```ts
 * parseIndexQuery('filter[author][]=A&filter[author][]=B&sort=-name&page=2');
 * // { filters: [{ attribute: 'author', values: ['A', 'B'], array: true }],
 * //   sort: [{ attribute: 'name', descending: true }], page: 2 }
 * ```
 */
export function parseIndexQuery(rawQuery: string, limits: Limits = DEFAULT_LIMITS): RawIndexQuery {
  if (rawQuery.length > limits.queryLength) {
    throw new HttpError(414, 'uri_too_long', {
      detail: `The query string is ${rawQuery.length} characters long; at most ${limits.queryLength} are accepted`,
    });
  }
  const filters = new Map<string, RawFilter>();
  let sort: RawIndexQuery['sort'];
  let page: number | undefined;
  let perPage: number | undefined;
  let count: boolean | 'estimated' | undefined;
  let values = 0;
  const seen = new Set<string>();
  const once = (name: string) => {
    if (seen.has(name)) throw invalid(`${name} is given more than once`);
    seen.add(name);
  };

  let include: string[] | undefined;
  let fields: string[] | undefined;
  let after: string | undefined;
  let archived: boolean | undefined;
  let q: string | undefined;
  for (const [key, value] of pairs(rawQuery)) {
    if (key === 'q') {
      once(key);
      q = value;
    } else if (key === 'include') {
      include = nameList(key, value, limits, include);
    } else if (key === 'fields') {
      fields = nameList(key, value, limits, fields);
    } else if (key === 'after') {
      once(key);
      after = value;
    } else if (key === 'sort') {
      once(key);
      const keys = value.split(',');
      if (keys.length > limits.sortKeys)
        throw invalid(`sort accepts at most ${limits.sortKeys} keys (got ${keys.length})`);
      sort = keys.map((entry) => {
        if (!SORT_KEY.test(entry)) {
          throw invalid(
            `sort must be a comma-separated list of attribute names, each optionally prefixed by "-" (got "${echo(value)}")`,
          );
        }
        const descending = entry.startsWith('-');
        return { attribute: descending ? entry.slice(1) : entry, descending };
      });
    } else if (key === 'page') {
      once(key);
      page = positiveInteger(key, value);
    } else if (key === 'per_page') {
      once(key);
      perPage = positiveInteger(key, value);
    } else if (key === 'count' && value === 'estimated') {
      once(key);
      count = value;
    } else if (key === 'count' || key === 'archived') {
      once(key);
      if (value !== 'true' && value !== 'false') {
        const allowed = key === 'count' ? 'true, false or estimated' : 'true or false';
        throw invalid(`${key} must be ${allowed} (got "${echo(value)}")`);
      }
      if (key === 'count') count = value === 'true';
      else archived = value === 'true';
    } else if (key === 'filter' || key.startsWith('filter[')) {
      if (++values > limits.filterValues)
        throw invalid(`At most ${limits.filterValues} filter values are accepted in one request`);
      const match = FILTER_KEY.exec(key);
      if (!match || match[1] === '') {
        throw invalid(
          `Malformed filter parameter "${echo(key)}": use filter[attribute]=value or filter[attribute][]=value`,
        );
      }
      const attribute = match[1] as string;
      const op = match[2] || undefined;
      const array = match[2] === '';
      const slot = op === undefined ? attribute : `${attribute}[${op}]`;
      const existing = filters.get(slot);
      if (existing && (!array || !existing.array)) {
        const name = echo(attribute, 30);
        throw invalid(
          op === undefined
            ? `filter[${name}] is given more than once: to match any of several values use filter[${name}][]=a&filter[${name}][]=b`
            : `filter[${name}][${echo(op, 20)}] is given more than once`,
        );
      }
      if (existing) existing.values.push(value);
      else
        filters.set(
          slot,
          op === undefined ? { attribute, values: [value], array } : { attribute, values: [value], array, op },
        );
    }
  }
  return {
    filters: [...filters.values()],
    sort,
    page,
    perPage,
    count,
    include,
    fields,
    after,
    archived,
    ...(q === undefined ? {} : { q }),
  };
}

/** The decoded `key=value` pairs of a query string. */
export function* pairs(rawQuery: string): Generator<[string, string]> {
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    yield [decode(equals === -1 ? pair : pair.slice(0, equals)), equals === -1 ? '' : decode(pair.slice(equals + 1))];
  }
}

/**
 * A comma-separated list of names (`include`, `fields`) added to the names the same parameter
 * gave before (`earlier`): one list, in order, each name at most once.
 */
function nameList(parameter: 'include' | 'fields', value: string, limits: Limits, earlier: string[] = []): string[] {
  const what = parameter === 'fields' ? 'attribute' : 'relation';
  const given = value.split(',');
  for (const name of given) {
    if (!NAME.test(name)) {
      throw invalid(`${parameter} must be a comma-separated list of ${what} names (got "${echo(value)}")`);
    }
  }
  const names = [...earlier, ...given];
  const most = parameter === 'fields' ? limits.filterValues : limits.sortKeys;
  if (names.length > most) throw invalid(`${parameter} accepts at most ${most} names`);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined) throw invalid(`${parameter} names the ${what} "${echo(twice, 40)}" more than once`);
  return names;
}

/**
 * The `include` and `fields` parameters of a show request (its other parameters are ignored),
 * each `undefined` when absent; repeated, each is one list (as in {@link parseIndexQuery}).
 * Malformed, or a name given twice, is a 400.
 *
 * @example
 * ```ts
 * parseMemberQuery('include=author,reviews&fields=title'); // { include: ['author', 'reviews'], fields: ['title'] }
 * ```
 */
export function parseMemberQuery(
  rawQuery: string,
  limits: Limits = DEFAULT_LIMITS,
): { include?: string[]; fields?: string[]; archived?: boolean } {
  if (!rawQuery.includes('include') && !rawQuery.includes('fields') && !rawQuery.includes('archived')) return {};
  if (rawQuery.length > limits.queryLength) return parseIndexQuery(rawQuery, limits);
  const found: { include?: string[]; fields?: string[]; archived?: boolean } = {};
  for (const [key, value] of pairs(rawQuery)) {
    if (key === 'archived') {
      if (found.archived !== undefined) throw invalid('archived is given more than once');
      if (value !== 'true' && value !== 'false') throw invalid(`archived must be true or false (got "${echo(value)}")`);
      found.archived = value === 'true';
    } else if (key === 'include' || key === 'fields') found[key] = nameList(key, value, limits, found[key]);
  }
  return found;
}
