// json-server 0.17 (the mock-API tool) serving the books from an in-memory database object
// under /api, logger off. Another API shape: `dialect` translates the contract's requests into
// json-server's `_page`/`_limit`/`_sort`/`_order` syntax and its answers back for the checks.
import jsonServer from 'json-server';
import { serve } from '../lib/serve.mjs';
import { contractAnswer, translateList } from './by-hand/dialect.mjs';

/** @type {import('./contender.d.ts').Contender} */
export default {
  name: 'json-server',
  description: 'json-server 0.17: router over an in-memory db object (no validation)',
  async start({ books }) {
    const server = jsonServer.create();
    server.disable('x-powered-by');
    server.set('etag', false);
    server.use(jsonServer.defaults({ logger: false, static: '/nonexistent', noCors: true }));
    server.use('/api', jsonServer.router({ books: books.map((book, i) => ({ id: i + 1, ...book })) }));
    return serve(server);
  },
  dialect: {
    /** `?page=3&per_page=25&filter[author]=A&sort=-name` → `?author=A&_sort=name,id&_order=desc,asc&_page=3&_limit=25`. */
    translate(request) {
      return translateList(request, ({ where, order, page, perPage }) => {
        const params = [];
        for (const { field, values } of where) params.push(`${field}=${encodeURIComponent(values[0])}`);
        params.push(`_sort=${order.map(({ field }) => field).join(',')}`);
        params.push(`_order=${order.map(({ descending }) => (descending ? 'desc' : 'asc')).join(',')}`);
        params.push(`_page=${page}`, `_limit=${perPage}`);
        return params.join('&');
      });
    },
    normalize(request, got) {
      return contractAnswer(request, got, (body, headers) => ({
        records: body,
        total: Number(headers['x-total-count']),
      }));
    },
  },
};
