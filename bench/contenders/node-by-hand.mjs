// The limit: the same API hand-written on plain node:http, no framework at all: the rules of
// by-hand/books.mjs, the query parsed with node:querystring, the body read and JSON.parse'd by
// hand, problem+json errors. What any library on node:http can at best approach.
import { parse as parseQuery } from 'node:querystring';
import { serve } from '../lib/serve.mjs';
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
} from './by-hand/books.mjs';
import { BookStore } from './by-hand/memory-store.mjs';

function send(res, status, body, headers = {}) {
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendProblem(res, problem) {
  const text = JSON.stringify(problem);
  res.writeHead(problem.status, {
    ...problem.headers,
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** The JSON body, with the baseline's (express.json's) answers: 415, 413, 400. */
function readJson(req) {
  const type = req.headers['content-type'] ?? '';
  const charset = /;\s*charset=["']?([^;"']+)/i.exec(type)?.[1]?.toLowerCase();
  if (!JSON_TYPE.test(type) || (charset && charset !== 'utf-8' && charset !== 'utf8')) {
    return Promise.reject(
      new Problem(415, 'unsupported_media_type', 'The request body must be JSON (Content-Type: application/json)', {
        headers: { 'Accept-Patch': 'application/json' },
      }),
    );
  }
  if (Number(req.headers['content-length']) > LIMIT) {
    return Promise.reject(
      new Problem(413, 'payload_too_large', `The request body is larger than the limit of ${LIMIT} bytes`, {
        headers: { Connection: 'close' },
      }),
    );
  }
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('error', reject);
    req.on('end', () => {
      const text = chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString();
      if (text.length === 0)
        return reject(new Problem(400, 'malformed_body', 'The request body is empty: send a JSON object'));
      try {
        resolve(JSON.parse(text));
      } catch (error) {
        reject(new Problem(400, 'malformed_body', `The request body is not valid JSON: ${error.message}`));
      }
    });
  });
}

function methodNotAllowed(req, res, path, allow) {
  if (req.method === 'OPTIONS') return send(res, 204, undefined, { Allow: allow });
  throw new Problem(405, 'method_not_allowed', `${req.method} is not allowed on ${path}; allowed: ${allow}`, {
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

  async function route(req, res) {
    const url = req.url;
    const mark = url.indexOf('?');
    let path = mark === -1 ? url : url.slice(0, mark);
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const rawQuery = mark === -1 ? '' : url.slice(mark + 1);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (path === COLLECTION) {
      if (method === 'GET') {
        const query = parseListQuery(parseQuery(rawQuery));
        const { books, total } = store.list(query);
        return send(res, 200, { books }, paginationHeaders(COLLECTION, rawQuery, query.page, query.perPage, total));
      }
      if (method === 'POST') {
        const book = store.insert(await validateBook(await readJson(req), false));
        return send(res, 200, { book }, { Location: `${COLLECTION}/${book.id}` });
      }
      return methodNotAllowed(req, res, url, COLLECTION_ALLOW);
    }
    if (path.startsWith(`${COLLECTION}/`) && path.indexOf('/', COLLECTION.length + 1) === -1) {
      const raw = decodeURIComponent(path.slice(COLLECTION.length + 1));
      if (method === 'GET') return send(res, 200, { book: findBook(raw) });
      if (method === 'PATCH') {
        const book = findBook(raw);
        const changes = await validateBook(await readJson(req), true);
        return send(res, 200, { book: store.update(book, changes) });
      }
      if (method === 'DELETE') {
        store.delete(findBook(raw).id);
        return send(res, 204);
      }
      return methodNotAllowed(req, res, url, MEMBER_ALLOW);
    }
    throw notFound(`No resource at ${path}`);
  }

  return (req, res) => {
    route(req, res).catch((error) => {
      if (error instanceof Problem) return sendProblem(res, error);
      console.error(error);
      sendProblem(res, new Problem(500, 'internal_error', 'An unexpected error occurred; it has been logged'));
    });
  };
}

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'node-by-hand',
  description: 'the same API hand-written on plain node:http (the limit: no framework)',
  async start({ books }) {
    return serve(createHandler(new BookStore(books)));
  },
};
