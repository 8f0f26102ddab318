import type { PageRelation } from './types.js';

/** Index parameters before typing narrows them: what {@link indexQueryString} serializes. */
export interface RawIndexParams {
  filter?: Readonly<Record<string, unknown>>;
  sort?: string | readonly string[];
  page?: number;
  perPage?: number;
  count?: boolean | 'estimated';
  /** Relation names, sent as `include=a,b`. */
  include?: readonly string[];
  /** Field names, sent as `fields=a,b`. */
  fields?: readonly string[];
  /** A cursor, sent as `after`. */
  after?: string;
  /** Sent as `archived=true`: archived records too (a resource declared with `archive`). */
  archived?: boolean;
  /** Search words, sent as `q`. */
  q?: string;
}

function encodeValue(field: string, value: unknown): string {
  if (typeof value === 'string') return encodeURIComponent(value);
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value);
  throw new TypeError(`filter.${field}: ${String(value)} cannot be filtered on (use a string, a number or a boolean)`);
}

/** The `filter[...]` pairs of one field: a value, a list (any of) or operators (`{ gte: 2000 }`). */
export function filterPairs(field: string, value: unknown): string[] {
  const key = `filter[${encodeURIComponent(field)}]`;
  if (Array.isArray(value)) {
    // "Any of nothing" matches nothing, but no filter at all would match everything: say so.
    if (value.length === 0) {
      throw new RangeError(`filter.${field} is an empty list; leave the filter out, or give at least one value`);
    }
    return value.map((item) => `${key}[]=${encodeValue(field, item)}`);
  }
  if (typeof value !== 'object' || value === null) return [`${key}=${encodeValue(field, value)}`];
  return Object.entries(value)
    .filter(([, operand]) => operand !== undefined)
    .map(([op, operand]) => `${key}[${encodeURIComponent(op)}]=${encodeValue(`${field}.${op}`, operand)}`);
}

/**
 * Serializes index parameters the way the server reads them: `filter[a]=v` for one value,
 * `filter[a][]=v` repeated for several, `filter[a][op]=v` per operator, `sort=a,-b`, `page`,
 * `per_page`, `count`, `include=a,b`, `fields=a,b`, `after`, `archived`, `q`. Brackets, dots and commas stay
 * readable; values are percent-encoded.
 *
 * @example
 * ```ts
 * indexQueryString({ filter: { author: ['A', 'B'], year: { gte: 2000 } }, sort: ['-name'], page: 2 });
 * // 'filter[author][]=A&filter[author][]=B&filter[year][gte]=2000&sort=-name&page=2'
 * ```
 */
export function indexQueryString(params: RawIndexParams = {}): string {
  const parts: string[] = [];
  for (const [field, value] of Object.entries(params.filter ?? {})) {
    if (value !== undefined) parts.push(...filterPairs(field, value));
  }
  const sort = typeof params.sort === 'string' ? [params.sort] : (params.sort ?? []);
  if (sort.length > 0) parts.push(`sort=${sort.map(encodeURIComponent).join(',')}`);
  if (params.page !== undefined) parts.push(`page=${params.page}`);
  if (params.perPage !== undefined) parts.push(`per_page=${params.perPage}`);
  if (params.count !== undefined) parts.push(`count=${params.count}`);
  if (params.include !== undefined && params.include.length > 0) {
    parts.push(`include=${params.include.map(encodeURIComponent).join(',')}`);
  }
  if (params.fields !== undefined && params.fields.length > 0) {
    parts.push(`fields=${params.fields.map(encodeURIComponent).join(',')}`);
  }
  if (params.after !== undefined) parts.push(`after=${encodeURIComponent(params.after)}`);
  if (params.archived !== undefined) parts.push(`archived=${params.archived}`);
  if (params.q !== undefined) parts.push(`q=${encodeURIComponent(params.q)}`);
  return parts.join('&');
}

/** A scheme (`https:`) or a network path (`//host`): a reference that may leave the base's origin. */
const LEAVES_ORIGIN = /^(?:[A-Za-z][A-Za-z0-9+.-]*:|[\\/]{2})/;

/**
 * `reference` made absolute against `base` when `base` is absolute, else kept as is; `undefined`
 * when it points to another origin than `base`'s (or may, for a relative `base`).
 */
function sameOrigin(reference: string, base: string): string | undefined {
  let origin: URL;
  try {
    origin = new URL(base);
  } catch {
    return LEAVES_ORIGIN.test(reference.trim()) ? undefined : reference;
  }
  try {
    const url = new URL(reference, origin);
    return url.origin === origin.origin && url.origin !== 'null' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The targets of an RFC 8288 `Link` header by relation, resolved against `base` (the URL the
 * request was sent to) when it is absolute. A target on another origin than `base`'s is left
 * out, so a client never follows pagination off the server it asked.
 *
 * @example
 * ```ts
 * parseLinks('</api/books?page=2>; rel="next"', 'http://localhost:3000/api/books');
 * // { next: 'http://localhost:3000/api/books?page=2' }
 * ```
 */
export function parseLinks(header: string | null, base: string): Partial<Record<PageRelation, string>> {
  const links: Partial<Record<PageRelation, string>> = {};
  for (const match of (header ?? '').matchAll(/<([^>]*)>\s*;\s*rel="?([^";,]+)"?/g)) {
    const target = sameOrigin(match[1] as string, base);
    if (target === undefined) continue;
    for (const rel of (match[2] as string).split(/\s+/)) {
      if (rel === 'first' || rel === 'prev' || rel === 'next' || rel === 'last') links[rel] = target;
    }
  }
  return links;
}

/** The `page` a link points at, when it names one. */
export function pageOf(link: string | undefined): number | undefined {
  if (link === undefined) return undefined;
  // Any base will do: only the query string is read.
  const page = Number(new URL(link, 'http://localhost').searchParams.get('page'));
  return Number.isSafeInteger(page) && page > 0 ? page : undefined;
}

/** The `after` cursor a link carries, when it carries one (cursor pagination). */
export function cursorOf(link: string | undefined): string | undefined {
  if (link === undefined) return undefined;
  return new URL(link, 'http://localhost').searchParams.get('after') ?? undefined;
}
