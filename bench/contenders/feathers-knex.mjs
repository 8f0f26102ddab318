// Feathers 5 over SQL as its guide sets it up: @feathersjs/express with its REST transport and a
// @feathersjs/knex `KnexService` on a knex instance of `pg` (a pool of 10) or better-sqlite3 (WAL,
// synchronous=FULL), paginated (default 25, max 100, so it counts like the others), no schema
// validation. Feathers' API has another shape: its `dialect` (by-hand/dialect.mjs) translates.
import { POOL_SIZE, SQLITE_SYNCHRONOUS, seededDatabase } from '../lib/databases.mjs';
import { serve } from '../lib/serve.mjs';
import { feathersDialect } from './by-hand/dialect.mjs';

/** The knex configuration of the guide for each database, with the pools every contender gets. */
function knexConfig(database) {
  if (database.kind === 'postgres') {
    // pg's own pool settings (no connection kept open at rest, idle ones closed after 10 s).
    return { client: 'pg', connection: database.location, pool: { min: 0, max: POOL_SIZE, idleTimeoutMillis: 10_000 } };
  }
  return {
    client: 'better-sqlite3',
    connection: { filename: database.location },
    useNullAsDefault: true,
    pool: {
      afterCreate(connection, done) {
        connection.pragma('journal_mode = WAL');
        connection.pragma(`synchronous = ${SQLITE_SYNCHRONOUS}`);
        done(null, connection);
      },
    },
  };
}

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'feathers-knex',
  description: 'Feathers 5: @feathersjs/express REST + @feathersjs/knex service (paginated, no validation)',
  dbs: ['postgres', 'sqlite'],
  async start({ books, db }) {
    const database = await seededDatabase('feathers-knex', db, books);
    const [{ default: knex }, { default: express, errorHandler, json, rest }, { feathers }, { KnexService }] =
      await Promise.all([
        import('knex'),
        import('@feathersjs/express'),
        import('@feathersjs/feathers'),
        import('@feathersjs/knex'),
      ]);
    const Model = knex(knexConfig(database));
    const app = express(feathers());
    app.disable('x-powered-by');
    app.set('etag', false);
    app.use(json());
    app.configure(rest());
    app.use('api/books', new KnexService({ Model, name: 'books', paginate: { default: 25, max: 100 } }));
    app.use(errorHandler({ logger: false }));
    return serve(app, async () => {
      await Model.destroy();
      database.remove();
    });
  },
  dialect: feathersDialect,
};
