// Run by Bun (see ../bun-by-hand.mjs): `bun by-hand-server.mjs <books>`. The books API written by
// hand on Bun.serve, as node-by-hand is on node:http: the rules of by-hand/books.mjs, the query
// parsed with node:querystring, the body read and JSON.parse'd by hand, problem+json errors.
// Prints `port <n>`.
import { parse as parseQuery } from 'node:querystring';
import { makeBooks } from '../../data.mjs';
import {
  COLLECTION,
  COLLECTION_ALLOW,
  JSON_TYPE,
  LIMIT,
  MEMBER_ALLOW,
  notFound,
  Problem,
  paginationHeaders,
  parseId,
  parseListQuery,
  validateBook,
} from '../by-hand/books.mjs';
import { BookStore } from '../by-hand/memory-store.mjs';

function send(status, body, headers = {}) {
  if (body === undefined) return new Response(null, { status, headers });
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' },
  });
}

function sendProblem(problem) {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { ...problem.headers, 'Content-Type': 'application/problem+json' },
  });
}

/** The JSON body, with the baseline's (express.json's) answers: 415, 413, 400. */
async function readJson(request) {
  const type = request.headers.get('content-type') ?? '';
  const charset = /;\s*charset=["']?([^;"']+)/i.exec(type)?.[1]?.toLowerCase();
  if (!JSON_TYPE.test(type) || (charset && charset !== 'utf-8' && charset !== 'utf8')) {
    throw new Problem(415, 'unsupported_media_type', 'The request body must be JSON (Content-Type: application/json)', {
      headers: { 'Accept-Patch': 'application/json' },
    });
  }
  if (Number(request.headers.get('content-length')) > LIMIT) {
    throw new Problem(413, 'payload_too_large', `The request body is larger than the limit of ${LIMIT} bytes`, {
      headers: { Connection: 'close' },
    });
  }
  const text = await request.text();
  if (text.length === 0) throw new Problem(400, 'malformed_body', 'The request body is empty: send a JSON object');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Problem(400, 'malformed_body', `The request body is not valid JSON: ${error.message}`);
  }
}

function methodNotAllowed(request, path, allow) {
  if (request.method === 'OPTIONS') return send(204, undefined, { Allow: allow });
  throw new Problem(405, 'method_not_allowed', `${request.method} is not allowed on ${path}; allowed: ${allow}`, {
    headers: { Allow: allow },
  });
}

function createHandler(store) {
  const findBook = (raw) => {
    const id = parseId(raw);
    const book = id === undefined ? undefined : store.get(id);
    if (!book) throw notFound(`book ${raw} does not exist`);
    return book;
  };

  async function route(request) {
    const url = request.url.slice(request.url.indexOf('/', request.url.indexOf('//') + 2)); // path and query
    const mark = url.indexOf('?');
    let path = mark === -1 ? url : url.slice(0, mark);
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const rawQuery = mark === -1 ? '' : url.slice(mark + 1);
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (path === COLLECTION) {
      if (method === 'GET') {
        const query = parseListQuery(parseQuery(rawQuery));
        const { books, total } = store.list(query);
        return send(200, { books }, paginationHeaders(COLLECTION, rawQuery, query.page, query.perPage, total));
      }
      if (method === 'POST') {
        const book = store.insert(await validateBook(await readJson(request), false));
        return send(200, { book }, { Location: `${COLLECTION}/${book.id}` });
      }
      return methodNotAllowed(request, url, COLLECTION_ALLOW);
    }
    if (path.startsWith(`${COLLECTION}/`) && path.indexOf('/', COLLECTION.length + 1) === -1) {
      const raw = decodeURIComponent(path.slice(COLLECTION.length + 1));
      if (method === 'GET') return send(200, { book: findBook(raw) });
      if (method === 'PATCH') {
        const book = findBook(raw);
        const changes = await validateBook(await readJson(request), true);
        return send(200, { book: store.update(book, changes) });
      }
      if (method === 'DELETE') {
        store.delete(findBook(raw).id);
        return send(204);
      }
      return methodNotAllowed(request, url, MEMBER_ALLOW);
    }
    throw notFound(`No resource at ${path}`);
  }

  return (request) =>
    route(request).catch((error) => {
      if (error instanceof Problem) return sendProblem(error);
      console.error(error);
      return sendProblem(new Problem(500, 'internal_error', 'An unexpected error occurred; it has been logged'));
    });
}

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: createHandler(new BookStore(makeBooks(Number(process.argv[2])))),
});
console.log(`port ${server.port}`);
