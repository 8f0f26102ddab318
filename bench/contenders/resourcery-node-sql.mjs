// The library over SQL on plain node:http: the books example's resource through `createListener`
// of the built @resourcery/node adapter over the built @resourcery/sql store of the `--db`
// database (see resourcery-sql.mjs).
import { createListener } from '@resourcery/node';
import { books as bookResource } from '../../examples/books/dist/book.js';
import { librarySqlStore, serveReady } from './resourcery-sql.mjs';

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'resourcery-node-sql',
  description: 'the books resource through @resourcery/node (createListener + sqlStore(url)) on node:http',
  dbs: ['postgres', 'sqlite'],
  async start(options) {
    const opened = await librarySqlStore('resourcery-node-sql', options);
    const listener = createListener({ resources: [bookResource], store: opened.store, basePath: '/api' });
    return serveReady(listener, () => listener.api.ready(), opened);
  },
};
