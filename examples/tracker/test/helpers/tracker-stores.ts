import type { Store } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { droppingTables, SERVERS, type ServerName } from '../../../../packages/sql/test/helpers/databases.js';
import { createApp } from '../../src/app.js';

/** The tracker app on `store`, over HTTP on a free port; `close` also closes the store. */
export async function serveTracker(store: Store, secret?: string): Promise<HttpSuiteTarget> {
  const app = createApp(store, { secret });
  await app.ready();
  const target = await serveHttp(app);
  return {
    baseUrl: target.baseUrl,
    close: async () => {
      await target.close();
      await app.close();
    },
  };
}

const run = Math.random().toString(36).slice(2, 8);
let opened = 0;

/**
 * A store on a database server over tables of its own (a fresh prefix: files and groups running
 * at the same time on one server never share a table), dropped when it closes.
 */
export function serverStore(name: ServerName, tag: string): Store {
  const tablePrefix = `${tag}${run}_${++opened}_`;
  return droppingTables(sqlStore(SERVERS[name].url, { tablePrefix }), tablePrefix);
}
