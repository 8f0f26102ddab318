// Helpers for contenders whose API has another shape than the contract (Feathers, json-server,
// NestJS + @dataui/crud): their `dialect.translate` maps a contract request to theirs,
// `dialect.normalize` maps their answer back to `{ status, body, total }` in the contract's shape,
// which checks.mjs compares with the baseline's answer to the contract request.
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

const failed = (got) => got.status < 200 || got.status > 299;

/**
 * A successful answer (2xx) in the contract's shape: `{ status: 200, body: { books } | { book },
 * total }`; `list(body, headers)` extracts `{ records, total }` from a list answer. A failure is
 * its status alone: error bodies have each API's own shape (the contract's are checked apart).
 */
export function contractAnswer(request, got, list) {
  if (failed(got)) return { status: got.status };
  if (isList(request)) {
    const { records, total } = list(got.body, got.headers);
    return { status: 200, body: { books: records }, total };
  }
  if (request.method === 'DELETE') return { status: 204, body: '' };
  return { status: 200, body: { book: got.body } };
}

/** The same reduction for a contender that speaks the contract (no total with `count=false`). */
export function contractOwnAnswer(request, got) {
  if (failed(got)) return { status: got.status };
  const answer = { status: got.status, body: got.body };
  const total = got.headers['x-total-count'];
  if (isList(request) && got.status === 200 && total !== undefined) answer.total = Number(total);
  return answer;
}

/**
 * Feathers' REST dialect, for every Feathers service (memory, knex):
 * `?page=3&per_page=25&filter[author]=A&sort=-name` becomes
 * `?author=A&$sort[name]=-1&$sort[id]=1&$limit=25&$skip=50`; a page answers `{ total, data }`.
 */
export const feathersDialect = {
  translate(request) {
    return translateList(request, ({ where, order, page, perPage }) => {
      const params = [];
      for (const { field, values } of where) {
        if (values.length === 1) params.push(`${field}=${encodeURIComponent(values[0])}`);
        else for (const value of values) params.push(`${field}[$in][]=${encodeURIComponent(value)}`);
      }
      for (const { field, descending } of order) params.push(`$sort[${field}]=${descending ? -1 : 1}`);
      params.push(`$limit=${perPage}`, `$skip=${(page - 1) * perPage}`);
      return params.join('&');
    });
  },
  normalize(request, got) {
    return contractAnswer(request, got, (body) => ({ records: body.data, total: body.total }));
  },
};
