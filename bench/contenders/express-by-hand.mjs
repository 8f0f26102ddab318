// The baseline: the same books API written by hand on Express 5, as a careful developer would
// write it without the library: express.json() for bodies, one handler per route, the rules of
// by-hand/books.mjs (the contract's query syntax, class-validator on the example's Book class),
// problem+json errors. Express's own ETag (a hash of every response body) is off, as in the
// Feathers and json-server contenders; the library's ETag (a hash of the stored record) is work
// this baseline does not do, and docs/performance.md says so.
import express from 'express';
import { serve } from '../lib/serve.mjs';
import { notFound, paginationHeaders, parseId, parseListQuery, validateBook } from './by-hand/books.mjs';
import { booksApp, JSON_TYPES, jsonBody, methodNotAllowed, rawQueryOf } from './by-hand/express.mjs';
import { BookStore } from './by-hand/memory-store.mjs';

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
  return booksApp(api);
}

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'express-by-hand',
  description: 'the same API hand-written on Express 5 (express.json, class-validator on Book)',
  async start({ books }) {
    return serve(createBaselineApp(new BookStore(books)));
  },
};
