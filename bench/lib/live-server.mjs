// Child process of bench/live.mjs: the tracker (examples/tracker, Express, bearer tokens) on the
// store named by argv ('memory', or a PostgreSQL URL), on a free port. It prints `{ port }` once
// listening and answers IPC `memory` with its memory after a full garbage collection, `cpu` with
// its CPU time, `stop` by closing. Run with --expose-gc.
import { createServer } from 'node:http';
import { importBundle } from './workspace.mjs';

const [store, source, prefix] = process.argv.slice(2);
const lib = await importBundle(
  `export { createApp } from './examples/tracker/src/app.ts';
   export { memoryStore } from '@resourcery/core';
   export { sqlStore } from '@resourcery/sql';`,
  { source: source === 'source', name: 'live-server' },
);
const app = lib.createApp(store === 'memory' ? lib.memoryStore() : lib.sqlStore(store, { tablePrefix: prefix }), {
  secret: 'live-bench-secret',
});
await app.ready();
const server = createServer(app);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));

process.on('message', async (message) => {
  if (message === 'memory') {
    for (let i = 0; i < 3; i++) globalThis.gc?.();
    process.send?.({ memory: process.memoryUsage() });
  } else if (message === 'cpu') {
    process.send?.({ cpu: process.cpuUsage() });
  } else if (message === 'stop') {
    server.closeAllConnections();
    server.close();
    await app.close();
    process.exit(0);
  }
});
