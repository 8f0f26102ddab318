import { memoryStore } from '@resourcery/core';
import { resourcery } from '@resourcery/express';
import { bookResource, httpConformanceSuite, serveHttp } from '@resourcery/testing/suites';
import express from 'express';

// The whole HTTP contract, through Express, on the memory store.
httpConformanceSuite('express + memory store', () => {
  const app = express();
  app.use('/api', resourcery({ resources: [bookResource()], store: memoryStore() }));
  return serveHttp(app);
});
