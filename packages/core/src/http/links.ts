/**
 * The pagination headers of an index response: `X-Total-Count` (when the total is known) and an
 * RFC 8288 `Link` header with `first`, `prev`, `next` and `last` (those that exist). Each link
 * keeps the request's other query parameters in their order and replaces (or appends) `page`.
 */
export function paginationHeaders(
  url: { basePath: string; path: string; rawQuery: string },
  page: number,
  perPage: number,
  total: number | undefined,
  hasMore?: boolean,
): Record<string, string> {
  const kept = url.rawQuery.split('&').filter((pair) => pair !== '' && !isPage(pair));
  const href = (target: number) => `<${url.basePath}${url.path}?${[...kept, `page=${target}`].join('&')}>`;
  const links = [`${href(1)}; rel="first"`];
  const last = total === undefined ? undefined : Math.max(1, Math.ceil(total / perPage));
  if (page > 1) links.push(`${href(last === undefined ? page - 1 : Math.min(page - 1, last))}; rel="prev"`);
  if (last === undefined ? hasMore : page < last) links.push(`${href(page + 1)}; rel="next"`);
  if (last !== undefined) links.push(`${href(last)}; rel="last"`);
  const headers: Record<string, string> = { Link: links.join(', ') };
  if (total !== undefined) headers['X-Total-Count'] = String(total);
  return headers;
}

/** Whether a raw `key=value` pair is `page`, however its key is percent-encoded (`pag%65=2`). */
function isPage(pair: string): boolean {
  const key = pair.split('=', 1)[0] as string;
  try {
    return decodeURIComponent(key.replace(/\+/g, ' ')) === 'page';
  } catch {
    return false;
  }
}
