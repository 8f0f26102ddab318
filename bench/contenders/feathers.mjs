// Feathers 5 as its guide sets it up: @feathersjs/express with its REST transport and the
// @feathersjs/memory service (paginated, so it counts like the others), no schema validation.
// Its API has another shape, so `dialect` translates the contract's requests into Feathers'
// query syntax and its answers back into the contract's shape for the correctness checks.

import express, { errorHandler, json, rest } from '@feathersjs/express';
import { feathers } from '@feathersjs/feathers';
import { MemoryService } from '@feathersjs/memory';
import { serve } from '../lib/serve.mjs';
import { feathersDialect } from './by-hand/dialect.mjs';

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'feathers',
  description: 'Feathers 5: @feathersjs/express REST + @feathersjs/memory service (paginated, no validation)',
  async start({ books }) {
    const app = express(feathers());
    app.disable('x-powered-by');
    app.set('etag', false);
    app.use(json());
    app.configure(rest());
    const service = new MemoryService({ startId: 1, paginate: { default: 25, max: 100 } });
    app.use('api/books', service);
    app.use(errorHandler({ logger: false }));
    for (const book of books) await service.create(book);
    return serve(app);
  },
  dialect: feathersDialect,
};
