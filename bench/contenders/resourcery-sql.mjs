// The library over SQL as a user runs it: the books example's app (examples/books/dist/app.js,
// the built `createApp`) on Express 5 over the built @resourcery/sql store of the `--db` database,
// opened from its URL as the example's DATABASE_URL does (`sqlStore(url)`, a pool of 10).
import { compiledResource } from '@resourcery/core/adapter';
import { sqlStore } from '@resourcery/sql';
import { createApp } from '../../examples/books/dist/app.js';
import { books as bookResource } from '../../examples/books/dist/book.js';
import { freshDatabase, SQLITE_SYNCHRONOUS, seedBooks } from '../lib/databases.mjs';
import { serve } from '../lib/serve.mjs';

/**
 * A fresh database for `name` whose books table the library created (with its indexes on
 * `(name, id)` and `(author, id)`, the ones every contender gets), seeded, and the store a user
 * would open on it: `{ store, close() }`. `storeUrl` makes the URL the store is opened with from
 * the database's (the variants through PgBouncer or without prepared statements).
 */
export async function librarySqlStore(name, { books, db }, storeUrl = (url) => url) {
  const database = await freshDatabase(name, db);
  const schemas = [compiledResource(bookResource).schema];
  const setup = sqlStore(database.url);
  await setup.init(schemas);
  await setup.close();
  await seedBooks(database, books);
  const store = sqlStore(storeUrl(database.url), { synchronous: SQLITE_SYNCHRONOUS === 'NORMAL' ? 'normal' : 'full' });
  return {
    store,
    async close() {
      await store.close();
      database.remove();
    },
  };
}

/** Serves `listener` once `ready()` resolved; closing it closes the store too. */
export async function serveReady(listener, ready, opened) {
  await ready();
  return serve(listener, () => opened.close());
}

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'resourcery-sql',
  description: 'the books example (createApp + sqlStore(url)) on Express 5 over PostgreSQL or SQLite',
  dbs: ['postgres', 'sqlite'],
  async start(options) {
    const opened = await librarySqlStore('resourcery-sql', options);
    const app = createApp(opened.store);
    return serveReady(app, () => app.ready(), opened);
  },
};
