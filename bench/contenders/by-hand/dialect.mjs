// Helpers for contenders whose API has another shape than the contract (Feathers, json-server):
// their `dialect.translate` maps a contract request to theirs, `dialect.normalize` maps their
// answer back to `{ status, body, total }` in the contract's shape, which checks.mjs compares
// with the baseline's answer to the contract request.
import { parse as parseQuery } from 'node:querystring';
import { parseListQuery } from './books.mjs';

/**
 * Translates a contract request: a list query goes through `listQuery(parsed)` (the parsed
 * contract query: where, order with the id tie-breaker, page, perPage); other requests keep
 * their path and body.
 */
export function translateList(request, listQuery) {
  const [path, rawQuery] = request.path.split('?');
  if (request.method !== 'GET' || path !== '/api/books') return request;
  return { ...request, path: `${path}?${listQuery(parseListQuery(parseQuery(rawQuery ?? '')))}` };
}

const isList = (request) => request.method === 'GET' && request.path.split('?')[0] === '/api/books';

/**
 * A successful answer (2xx) in the contract's shape: `{ status: 200, body: { books } | { book },
 * total }`; `list(body, headers)` extracts `{ records, total }` from a list answer.
 */
export function contractAnswer(request, got, list) {
  if (got.status < 200 || got.status > 299) return { status: got.status, body: got.body };
  if (isList(request)) {
    const { records, total } = list(got.body, got.headers);
    return { status: 200, body: { books: records }, total };
  }
  if (request.method === 'DELETE') return { status: 204, body: '' };
  return { status: 200, body: { book: got.body } };
}

/** The same reduction for a contender that speaks the contract. */
export function contractOwnAnswer(request, got) {
  const answer = { status: got.status, body: got.body };
  if (isList(request) && got.status === 200) answer.total = Number(got.headers['x-total-count']);
  return answer;
}
