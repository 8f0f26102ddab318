import type { CollectionSchema, Store } from '@resourcery/core/store';
import { type SqlStoreProvider, sqlStore } from '@resourcery/sql';
import { type HttpSuiteTarget, noteResource, serveHttp } from '@resourcery/testing';
import { SERVERS, type ServerName } from '../../../../packages/sql/test/helpers/databases.js';
import { createApp } from '../../src/app.js';

/**
 * The library app on `store`, with the conformance suite's `note` resource beside it, over HTTP
 * on a free port; `close` also closes the store.
 */
export async function serveLibrary(store: Store): Promise<HttpSuiteTarget> {
  const app = createApp(store, [noteResource()]);
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

/**
 * Wraps a provider so that `close` first drops the tables its collections created, the
 * referring ones first: a table others still point to cannot be dropped before them (the
 * shared `droppingTables` drops in creation order, which PostgreSQL and MariaDB refuse here).
 */
export function droppingLibraryTables(provider: SqlStoreProvider, tablePrefix: string): SqlStoreProvider {
  const tables: string[] = [];
  return Object.assign(Object.create(provider) as SqlStoreProvider, {
    collection(schema: CollectionSchema) {
      const table = `${tablePrefix}${schema.name}`;
      if (!tables.includes(table)) tables.push(table);
      return provider.collection(schema);
    },
    async close() {
      try {
        for (const table of [...tables].reverse()) await provider.db.schema.dropTable(table).ifExists().execute();
      } finally {
        await provider.close();
      }
    },
  });
}

const run = Math.random().toString(36).slice(2, 8);
let opened = 0;

/** A fresh table prefix: files and groups running at the same time on one server never share a table. */
export function freshPrefix(tag: string): string {
  return `${tag}${run}_${++opened}_`;
}

/** A store on a database server over tables of its own, dropped when it closes. */
export function serverStore(name: ServerName, tag: string): SqlStoreProvider {
  const tablePrefix = freshPrefix(tag);
  return droppingLibraryTables(sqlStore(SERVERS[name].url, { tablePrefix }), tablePrefix);
}

/**
 * A store on the test PostgreSQL whose reads outside transactions go to its streaming replica
 * (.ci/replica.sh), checked every 100 ms (so that reads reach it between the suite's writes), over
 * tables of its own; `stores` collects it, for the replica's counts.
 */
export function replicatedStore(tag: string, stores: SqlStoreProvider[]): SqlStoreProvider {
  const tablePrefix = freshPrefix(tag);
  const replicas = { urls: [SERVERS.replica.url], checkIntervalMs: 100 };
  const store = sqlStore(SERVERS.postgres.url, { tablePrefix, replicas });
  stores.push(store);
  return droppingLibraryTables(store, tablePrefix);
}
