// The shared HTTP conformance suite through the Fetch adapter on Node, served by
// @hono/node-server (Node's HTTP server translated to and from Request/Response).
import { createApi, memoryStore } from '@resourcery/core';
import { bookResource } from '@resourcery/testing';
import { httpConformanceSuite } from '@resourcery/testing/suites';
import { createFetchHandler } from '../src/index.js';
import { serveFetch } from './serve-fetch.js';

httpConformanceSuite(
  'fetch on node',
  () => serveFetch(createFetchHandler({ resources: [bookResource()], store: memoryStore(), basePath: '/api' })),
  {
    streaming: (wrap) => {
      const options = { resources: [bookResource()], store: memoryStore(), basePath: '/api' };
      return serveFetch(createFetchHandler(options, wrap(createApi(options))));
    },
  },
);
