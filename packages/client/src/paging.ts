import { cursorOf, pageOf, parseLinks } from './query-string.js';
import type { IndexResult } from './types.js';

// How an index answer's headers become its result, and how `each` walks the pages: by page
// number or, on a resource with cursor pagination, by the `after` of each `next` link.

/**
 * The result of an index answer: its records, and the pagination of its `X-Total-Count` (or
 * `X-Total-Count-Estimate`) and `Link` headers.
 */
export function indexResult<T>(records: T[], response: Response, target: string): IndexResult<T> {
  const links = parseLinks(response.headers.get('link'), response.url || target);
  const exact = response.headers.get('x-total-count');
  const total = exact ?? response.headers.get('x-total-count-estimate');
  return {
    records,
    total: total === null ? undefined : Number(total),
    estimated: exact === null && total !== null,
    next: pageOf(links.next),
    prev: pageOf(links.prev),
    last: pageOf(links.last),
    nextCursor: cursorOf(links.next),
    links,
  };
}

/** Every record of every page from `params` on: the next page's cursor when there is one, else its number. */
export async function* eachRecord<P extends { page?: number; after?: string }, T>(
  index: (params: P) => Promise<IndexResult<T>>,
  params: P,
): AsyncGenerator<T> {
  let next: P | undefined = params;
  while (next !== undefined) {
    const result: IndexResult<T> = await index(next);
    yield* result.records;
    if (result.nextCursor !== undefined) next = { ...params, page: undefined, after: result.nextCursor };
    else next = result.next === undefined ? undefined : { ...params, page: result.next, after: undefined };
  }
}
