import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resourcery } from '@resourcery/express';
import { type SqlStoreProvider, sqlStore } from '@resourcery/sql';
import { bookResource, type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { httpConformanceSuite } from '@resourcery/testing/suites';
import express from 'express';
import { afterAll } from 'vitest';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';

const run = Math.random().toString(36).slice(2, 8);
let started = 0;

/** Each group of the suite gets an empty store: its own tables (by prefix) or its own file. */
async function serve(store: SqlStoreProvider): Promise<HttpSuiteTarget> {
  const target = await serveHttp(express().use('/api', resourcery({ resources: [bookResource()], store })));
  return {
    baseUrl: target.baseUrl,
    close: async () => {
      await target.close();
      await store.close();
    },
  };
}

const folder = mkdtempSync(join(tmpdir(), 'resourcery-http-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
httpConformanceSuite('express + SQLite', () => serve(sqlStore(`sqlite:${join(folder, `${++started}.sqlite`)}`)));

for (const name of ['postgres', 'mariadb'] as const) {
  if (serverAvailable(name)) {
    httpConformanceSuite(`express + ${SERVERS[name].label}`, () => {
      const tablePrefix = `h${run}_${++started}_`;
      return serve(droppingTables(sqlStore(SERVERS[name].url, { tablePrefix }), tablePrefix));
    });
  }
}
