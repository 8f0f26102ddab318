// The SQL baseline: the same books API written by hand on Express 5 over PostgreSQL (`pg`) or
// SQLite (better-sqlite3), as a careful developer would without the library: the routes and rules
// of express-by-hand (express.json(), the contract's query syntax, class-validator on Book,
// problem+json) over parameterized SQL (by-hand/sql-stores.mjs): a page and a `count(*)` for
// X-Total-Count (or, with `count=false`, one row more than the page to know whether there is a
// next one), `UPDATE … RETURNING`, `INSERT … RETURNING`, and a record's answer tagged with the
// ETag of its body, as the library tags show, create and update.
import express from 'express';
import { seededDatabase } from '../lib/databases.mjs';
import { serve } from '../lib/serve.mjs';
import {
  COLLECTION_ALLOW,
  MEMBER_ALLOW,
  notFound,
  paginationHeaders,
  parseId,
  parseListQuery,
  validateBook,
} from './by-hand/books.mjs';
import { booksApp, JSON_TYPES, jsonBody, methodNotAllowed, rawQueryOf, sendTagged } from './by-hand/express.mjs';
import { openSqlBooks } from './by-hand/sql-stores.mjs';

/**
 * The Express app over a store of by-hand/sql-stores.mjs. With `count: false` it never counts
 * (no X-Total-Count, no `last` link, whatever the request says); otherwise it counts unless the
 * request says `count=false`, as the contract has it.
 */
export function createSqlApp(store, { count = true } = {}) {
  const idOf = (req) => {
    const id = parseId(req.params.id);
    if (id === undefined) throw notFound(`book ${req.params.id} does not exist`);
    return id;
  };
  const missing = (req) => notFound(`book ${req.params.id} does not exist`);

  const api = express.Router();
  const json = express.json({ limit: '1mb', type: JSON_TYPES });
  api
    .route('/books')
    .get(async (req, res) => {
      const rawQuery = rawQueryOf(req);
      const query = parseListQuery(req.query);
      const { books, total, hasMore } = await store.list(query, count && query.count);
      res.set(paginationHeaders(`${req.baseUrl}${req.path}`, rawQuery, query.page, query.perPage, total, hasMore));
      res.json({ books });
    })
    .post(json, async (req, res) => {
      const book = await store.insert(await validateBook(jsonBody(req), false));
      res.setHeader('Location', `${req.baseUrl}/books/${book.id}`);
      sendTagged(req, res, { book });
    })
    .all(methodNotAllowed(COLLECTION_ALLOW));
  api
    .route('/books/:id')
    .get(async (req, res) => {
      const book = await store.get(idOf(req));
      if (!book) throw missing(req);
      sendTagged(req, res, { book });
    })
    .patch(json, async (req, res) => {
      const id = idOf(req);
      const book = await store.update(id, await validateBook(jsonBody(req), true));
      if (!book) throw missing(req);
      sendTagged(req, res, { book });
    })
    .delete(async (req, res) => {
      if (!(await store.delete(idOf(req)))) throw missing(req);
      res.status(204).end();
    })
    .all(methodNotAllowed(MEMBER_ALLOW));
  return booksApp(api);
}

/** Starts the app over a fresh seeded database of `db` named after `name`. */
export async function startSqlApp(name, { books, db }, options) {
  const database = await seededDatabase(name, db, books);
  const store = await openSqlBooks(database);
  return serve(createSqlApp(store, options), async () => {
    await store.close();
    database.remove();
  });
}

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'express-sql',
  description: 'the same API hand-written on Express 5 over parameterized SQL (pg pool of 10 / better-sqlite3)',
  dbs: ['postgres', 'sqlite'],
  start: (options) => startSqlApp('express-sql', options),
};
