import { expect } from 'vitest';
import { byCodePoint, type HttpClient, parseLinks, type Reply } from '../http-client.js';

// CONTRACT part 3's query language computed in plain JavaScript, independently of the library:
// what a filter should keep and in which order records should come, so that cases compare the
// server's answers with values the test worked out itself.

/**
 * A filter operator of `filter[attr][op]=v`.
 *
 * @example
 * ```ts
 * const op: Op = 'prefix';
 * ```
 */
export type Op = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'prefix' | 'contains' | 'null';

/**
 * How an attribute's values compare: as integers, exact decimals, instants or code points.
 *
 * @example
 * ```ts
 * const kind: Kind = 'decimal'; // "9.99" < "10.00"
 * ```
 */
export type Kind = 'integer' | 'decimal' | 'date-time' | 'string';

/**
 * The comparison operators, which apply to every ordered type.
 *
 * @example
 * ```ts
 * for (const op of COMPARISONS) await api.get(`/books?filter[year][${op}]=1950`);
 * ```
 */
export const COMPARISONS: readonly Op[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'];

/** A decimal as an exact integer of hundredths (`"10"`, `"10.0"` and `"10.00"` are all 1000n). */
function hundredths(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) throw new Error(`not a 2-place decimal: ${text}`);
  const value = BigInt(match[2] as string) * 100n + BigInt((match[3] ?? '').padEnd(2, '0'));
  return match[1] === '-' ? -value : value;
}

/**
 * Compares two values of a kind: negative, zero or positive.
 *
 * @example
 * ```ts
 * compareAs('decimal', '9.99', '10'); // < 0
 * compareAs('string', '\u{1D518}', '\uFFFD'); // > 0 (code points, not UTF-16 units)
 * ```
 */
export function compareAs(kind: Kind, a: string | number, b: string | number): number {
  switch (kind) {
    case 'integer':
      return Number(a) - Number(b);
    case 'decimal': {
      const difference = hundredths(String(a)) - hundredths(String(b));
      return difference < 0n ? -1 : difference > 0n ? 1 : 0;
    }
    case 'date-time':
      return Date.parse(String(a)) - Date.parse(String(b));
    case 'string':
      return byCodePoint(String(a), String(b));
  }
}

/**
 * Whether a stored value passes `filter[attr][op]=operand`: comparisons never match `null`,
 * `prefix` and `contains` are literal and case-sensitive, `null=true|false` tests for a value.
 *
 * @example
 * ```ts
 * passes('decimal', '10.00', 'gte', '10'); // true
 * passes('integer', null, 'ne', '1937'); // false
 * ```
 */
export function passes(kind: Kind, value: string | number | null, op: Op, operand: string): boolean {
  if (op === 'null') return (value === null) === (operand === 'true');
  if (value === null) return false;
  if (op === 'prefix') return String(value).startsWith(operand);
  if (op === 'contains') return String(value).includes(operand);
  const order = compareAs(kind, value, operand);
  return { eq: order === 0, ne: order !== 0, gt: order > 0, gte: order >= 0, lt: order < 0, lte: order <= 0 }[op];
}

/**
 * One key of a `sort` parameter.
 *
 * @example
 * ```ts
 * const key: SortKey = { field: 'rating', kind: 'integer', descending: true }; // sort=-rating
 * ```
 */
export interface SortKey {
  readonly field: string;
  readonly kind: Kind;
  readonly descending?: boolean;
}

/**
 * Sorts records as the contract orders an index: by the keys, `null` first ascending and last
 * descending, then by `id` ascending (integers numerically, uuids by code point).
 *
 * @example
 * ```ts
 * sortedBy(reviews, [{ field: 'rating', kind: 'integer', descending: true }]);
 * ```
 */
export function sortedBy<T extends { id: string | number }>(records: readonly T[], keys: readonly SortKey[]): T[] {
  const value = (record: T, field: string) => (record as Record<string, unknown>)[field] as string | number | null;
  return [...records].sort((a, b) => {
    for (const { field, kind, descending } of keys) {
      const x = value(a, field);
      const y = value(b, field);
      const order = x === null ? (y === null ? 0 : -1) : y === null ? 1 : compareAs(kind, x, y);
      if (order !== 0) return descending ? -order : order;
    }
    return typeof a.id === 'number' ? a.id - (b.id as number) : byCodePoint(a.id, b.id as string);
  });
}

/**
 * One page of a cursor walk: the URL asked, what it listed, and the whole reply.
 *
 * @example
 * ```ts
 * const [first]: WalkedPage<ReviewJson>[] = await walk(api, '/reviews', 'reviews');
 * ```
 */
export interface WalkedPage<T> {
  readonly path: string;
  readonly records: T[];
  readonly reply: Reply;
}

/**
 * Follows `Link: rel="next"` from `path` until a page has none (at most `most` pages), calling
 * `between` after each page (to write while walking); answers the pages in order.
 *
 * @example
 * ```ts
 * const pages = await walk<ReviewJson>(api, '/reviews?per_page=5', 'reviews');
 * ```
 */
export async function walk<T>(
  api: HttpClient,
  path: string,
  key: string,
  between: (page: number) => Promise<void> = async () => {},
  most = 100,
): Promise<WalkedPage<T>[]> {
  const pages: WalkedPage<T>[] = [];
  let next: string | undefined = path;
  while (next !== undefined) {
    expect(pages.length, `more than ${most} pages from ${path}`).toBeLessThan(most);
    const reply = await api.get(next);
    expect(reply.status, `${next}: ${reply.text}`).toBe(200);
    expect(Object.keys(reply.body)).toEqual([key]);
    pages.push({ path: next, records: reply.body[key] as T[], reply });
    const link = parseLinks(reply.headers.get('link')).next;
    next = link === undefined ? undefined : api.resolve(link);
    await between(pages.length);
  }
  return pages;
}

/**
 * Asserts the shape of a finished walk of `perPage`: every page but the last is full, and only
 * a page after a full one may be empty (a full last page may or may not link to it).
 *
 * @example
 * ```ts
 * expectFullPages(pages, 5);
 * ```
 */
export function expectFullPages(pages: readonly WalkedPage<unknown>[], perPage: number): void {
  for (const [index, page] of pages.entries()) {
    if (index < pages.length - 1) expect(page.records.length, page.path).toBe(perPage);
    else expect(page.records.length, page.path).toBeLessThanOrEqual(perPage);
  }
  const last = pages[pages.length - 1];
  if (pages.length > 1 && last?.records.length === 0) {
    expect(pages[pages.length - 2]?.records.length).toBe(perPage);
  }
}
