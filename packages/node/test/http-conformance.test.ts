import { createApi, memoryStore } from '@resourcery/core';
import { bookResource, serveHttp } from '@resourcery/testing';
import { httpConformanceSuite } from '@resourcery/testing/suites';
import { describe, expect, it } from 'vitest';
import { closeServer, createListener } from '../src/index.js';

// The whole HTTP contract, through plain node:http, on the memory store; streamed bodies too,
// shut down with closeServer.
httpConformanceSuite(
  'node:http + memory store',
  () => serveHttp(createListener({ resources: [bookResource()], store: memoryStore(), basePath: '/api' })),
  {
    streaming: (wrap) => {
      const options = { resources: [bookResource()], store: memoryStore(), basePath: '/api' };
      return serveHttp(createListener(options, wrap(createApi(options))), '/api', { shutdown: closeServer });
    },
  },
);

describe('outside the base path', () => {
  it('is a 404 problem, never routed to a resource', async () => {
    const target = await serveHttp(
      createListener({ resources: [bookResource()], store: memoryStore(), basePath: '/api' }),
    );
    try {
      const res = await fetch(target.baseUrl.replace(/\/api$/, '/books'));
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    } finally {
      await target.close();
    }
  });
});
