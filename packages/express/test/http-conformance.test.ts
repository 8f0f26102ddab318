import { createApi, memoryStore } from '@resourcery/core';
import { resourcery } from '@resourcery/express';
import { closeServer } from '@resourcery/node';
import { bookResource, serveHttp } from '@resourcery/testing';
import { httpConformanceSuite } from '@resourcery/testing/suites';
import express from 'express';

// The whole HTTP contract, through Express, on the memory store; streamed bodies too, shut
// down with closeServer of @resourcery/node.
httpConformanceSuite(
  'express + memory store',
  () => {
    const app = express();
    app.use('/api', resourcery({ resources: [bookResource()], store: memoryStore() }));
    return serveHttp(app);
  },
  {
    streaming: (wrap) => {
      const app = express();
      app.use('/api', resourcery(wrap(createApi({ resources: [bookResource()], store: memoryStore() }))));
      return serveHttp(app, '/api', { shutdown: closeServer });
    },
  },
);
