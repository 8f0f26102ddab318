// The baseline: the same books API written by hand on Express 5, as a careful developer would
// write it without the library: express.json() for bodies, one handler per route, the rules of
// by-hand/books.mjs (the contract's query syntax, class-validator on the example's Book class),
// problem+json errors. Express's own ETag (a hash of every response body) is off, as in the
// Feathers and json-server contenders; the library's ETag (a hash of the stored record) is work
// this baseline does not do, and docs/performance.md says so.
import express from 'express';
import { serve } from '../lib/serve.mjs';
import {
  BookStore,
  notFound,
  Problem,
  paginationHeaders,
  parseId,
  parseListQuery,
  validateBook,
} from './by-hand/books.mjs';

const JSON_TYPES = ['application/json', 'application/*+json'];
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(;|$)/i;

function rawQueryOf(req) {
  const mark = req.url.indexOf('?');
  return mark === -1 ? '' : req.url.slice(mark + 1);
}

function sendProblem(res, problem) {
  res.status(problem.status);
  for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/problem+json');
  res.end(JSON.stringify(problem));
}

/** The body parsed by express.json(); 415 when the request was not JSON, 400 when it was empty. */
function jsonBody(req) {
  if (req.body === undefined && !JSON_TYPE.test(req.headers['content-type'] ?? '')) {
    throw new Problem(415, 'unsupported_media_type', 'The request body must be JSON (Content-Type: application/json)', {
      headers: { 'Accept-Patch': 'application/json' },
    });
  }
  if (req.body === undefined || req.headers['content-length'] === '0') {
    throw new Problem(400, 'malformed_body', 'The request body is empty: send a JSON object');
  }
  return req.body;
}

function methodNotAllowed(allow) {
  return (req, res) => {
    if (req.method === 'OPTIONS') {
      res.status(204).setHeader('Allow', allow);
      return res.end();
    }
    sendProblem(
      res,
      new Problem(405, 'method_not_allowed', `${req.method} is not allowed on ${req.originalUrl}; allowed: ${allow}`, {
        headers: { Allow: allow },
      }),
    );
  };
}

/** Express errors (body-parser's 400/413/415 and our own problems) as problem+json. */
function problemFrom(error) {
  if (error instanceof Problem) return error;
  switch (error?.type) {
    case 'entity.parse.failed':
      return new Problem(400, 'malformed_body', `The request body is not valid JSON: ${error.message}`);
    case 'entity.too.large':
      return new Problem(413, 'payload_too_large', 'The request body is larger than the limit of 1048576 bytes', {
        headers: { Connection: 'close' },
      });
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new Problem(415, 'unsupported_media_type', error.message);
  }
  console.error(error);
  return new Problem(500, 'internal_error', 'An unexpected error occurred; it has been logged');
}

export function createBaselineApp(store) {
  const findBook = (req) => {
    const id = parseId(req.params.id);
    const book = id === undefined ? undefined : store.get(id);
    if (!book) throw notFound(`book ${req.params.id} does not exist`);
    return book;
  };

  const api = express.Router();
  const json = express.json({ limit: '1mb', type: JSON_TYPES });
  api
    .route('/books')
    .get((req, res) => {
      const rawQuery = rawQueryOf(req);
      const query = parseListQuery(req.query);
      const { books, total } = store.list(query);
      res.set(paginationHeaders(`${req.baseUrl}${req.path}`, rawQuery, query.page, query.perPage, total));
      res.json({ books });
    })
    .post(json, async (req, res) => {
      const book = store.insert(await validateBook(jsonBody(req), false));
      res.setHeader('Location', `${req.baseUrl}/books/${book.id}`);
      res.json({ book });
    })
    .all(methodNotAllowed('GET, HEAD, POST, OPTIONS'));
  api
    .route('/books/:id')
    .get((req, res) => {
      res.json({ book: findBook(req) });
    })
    .patch(json, async (req, res) => {
      const book = findBook(req);
      const changes = await validateBook(jsonBody(req), true);
      res.json({ book: store.update(book, changes) });
    })
    .delete((req, res) => {
      store.delete(findBook(req).id);
      res.status(204).end();
    })
    .all(methodNotAllowed('GET, HEAD, PATCH, DELETE, OPTIONS'));
  api.use((req) => {
    throw notFound(`No resource at ${req.originalUrl.split('?')[0]}`);
  });
  api.use((error, _req, res, _next) => sendProblem(res, problemFrom(error)));

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use('/api', api);
  return app;
}

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'express-by-hand',
  description: 'the same API hand-written on Express 5 (express.json, class-validator on Book)',
  async start({ books }) {
    return serve(createBaselineApp(new BookStore(books)));
  },
};
