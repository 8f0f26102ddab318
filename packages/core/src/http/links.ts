/**
 * The most characters of a `Link` header with more than one relation. Each target repeats the
 * query string, and clients refuse a response head over 16 KiB (Node's default): beyond this,
 * relations are left out, least useful first.
 */
export const LINK_BUDGET = 12 * 1024;

/** Relations by usefulness: `next` walks the pages, `prev` walks back, `first` and `last` jump. */
const PRIORITY = ['next', 'prev', 'first', 'last'] as const;
const ORDER = ['first', 'prev', 'next', 'last'] as const;

/**
 * The pagination headers of an index response: `X-Total-Count` (when the total is known) and an
 * RFC 8288 `Link` header with `first`, `prev`, `next` and `last` (those that exist). Each link
 * keeps the request's other query parameters in their order and replaces (or appends) `page`.
 * Every key and value is decoded and percent-encoded again, and so is any character of the path
 * that a URI may not hold raw: whatever the client sent (`>`, `"`, `,`, `;`...), a target cannot
 * close its `<...>` or add a relation, and each link stays on the request's own path. The most
 * useful relation that exists is always sent; the others while the header stays within
 * {@link LINK_BUDGET}.
 */
export function paginationHeaders(
  url: { basePath: string; path: string; rawQuery: string },
  page: number,
  perPage: number,
  total: number | undefined,
  hasMore?: boolean,
): Record<string, string> {
  const query = keptPairs(url.rawQuery, 'page');
  const path = encodePath(`${url.basePath}${url.path}`);
  const last = total === undefined ? undefined : Math.max(1, Math.ceil(total / perPage));
  const pages: Partial<Record<(typeof ORDER)[number], number>> = { first: 1 };
  if (page > 1) pages.prev = last === undefined ? page - 1 : Math.min(page - 1, last);
  if (last === undefined ? hasMore : page < last) pages.next = page + 1;
  if (last !== undefined) pages.last = last;

  const links: Partial<Record<(typeof ORDER)[number], string>> = {};
  let count = 0;
  let size = 0;
  for (const rel of PRIORITY) {
    const target = pages[rel];
    if (target === undefined) continue;
    const link = `<${path}?${query}page=${target}>; rel="${rel}"`;
    if (count > 0 && size + 2 + link.length > LINK_BUDGET) continue;
    links[rel] = link;
    size += (count > 0 ? 2 : 0) + link.length;
    count++;
  }
  let header = '';
  for (const rel of ORDER) {
    const link = links[rel];
    if (link !== undefined) header = header === '' ? link : `${header}, ${link}`;
  }
  const headers: Record<string, string> = { Link: header };
  if (total !== undefined) headers['X-Total-Count'] = String(total);
  return headers;
}

/**
 * The request's query pairs but those of the parameter `replaced` (however its key is
 * percent-encoded: `pag%65=2`), each re-encoded, joined with `&` and followed by one `&` when
 * any is kept: the start of a link's query, which the replaced parameter ends.
 */
function keptPairs(rawQuery: string, replaced: string): string {
  let kept = '';
  for (const pair of rawQuery.split('&')) {
    if (pair === '' || keyOf(pair) === replaced) continue;
    kept += `${reencode(pair)}&`;
  }
  return kept;
}

/** The decoded key of a raw `key=value` pair (decoded only when it holds an escape or a `+`). */
function keyOf(pair: string): string {
  const equals = pair.indexOf('=');
  const key = equals === -1 ? pair : pair.slice(0, equals);
  return key.includes('%') || key.includes('+') ? decode(key) : key;
}

/**
 * The pagination headers of an index with cursor pagination: a `Link` with `next` (the request's
 * other parameters kept, `after` set to the cursor) when there is a next page, and
 * `X-Total-Count` when counted.
 *
 * @example
 * ```ts
 * cursorHeaders({ basePath: '/api', path: '/reviews', rawQuery: 'per_page=10' }, 'eyJ2IjoxfQ.sig', undefined);
 * // { Link: '</api/reviews?per_page=10&after=eyJ2IjoxfQ.sig>; rel="next"' }
 * ```
 */
export function cursorHeaders(
  url: { basePath: string; path: string; rawQuery: string },
  next: string | undefined,
  total: number | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (next !== undefined) {
    const query = keptPairs(url.rawQuery, 'after');
    headers.Link = `<${encodePath(`${url.basePath}${url.path}`)}?${query}after=${next}>; rel="next"`;
  }
  if (total !== undefined) headers['X-Total-Count'] = String(total);
  return headers;
}

/** A raw query component decoded as the query parser decodes it (`+` is a space); kept as is when malformed. */
function decode(component: string): string {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    return component;
  }
}

/** Percent-encodes all but unreserved characters; a lone surrogate becomes U+FFFD. */
function encode(text: string): string {
  return encodeURIComponent(text.replace(/\p{Cs}/gu, '\uFFFD'));
}

/** A pair that holds nothing a link may not hold raw: unreserved characters, `[]`, `=`, escapes. */
const SAFE_PAIR = /^(?:[A-Za-z0-9\-._~[\]=]|%[0-9A-Fa-f]{2})*$/;

/**
 * One `key=value` pair, decoded and encoded again; brackets stay readable in keys
 * (`filter[author][]`). A pair already made only of safe characters (most are) is kept as sent.
 */
function reencode(pair: string): string {
  if (SAFE_PAIR.test(pair)) return pair;
  const equals = pair.indexOf('=');
  const key = encode(decode(equals === -1 ? pair : pair.slice(0, equals)))
    .replace(/%5B/g, '[')
    .replace(/%5D/g, ']');
  return equals === -1 ? key : `${key}=${encode(decode(pair.slice(equals + 1)))}`;
}

const SAFE_PATH = /^[A-Za-z0-9\-._~/]*$/;

/** The path with every character a URI path may not hold raw percent-encoded (`,` and `;` included). */
function encodePath(path: string): string {
  if (SAFE_PATH.test(path)) return path;
  return path.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+=:@/%]/gu, (char) => encode(char));
}
