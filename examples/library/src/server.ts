import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { memoryStore } from '@resourcery/core';
import { closeServer } from '@resourcery/express';
import { redactUrl, sqlStore } from '@resourcery/sql';
import { createApp } from './app.js';

/** Unset, the library lives in a SQLite file inside the example's folder (`data/` is gitignored). */
function defaultDatabaseUrl(): string {
  const folder = fileURLToPath(new URL('../data/', import.meta.url));
  mkdirSync(folder, { recursive: true });
  return `sqlite:${folder}library.sqlite`;
}

const port = Number(process.env.PORT ?? 3000);
const databaseUrl = process.env.DATABASE_URL || defaultDatabaseUrl();
// PostgreSQL read replicas, comma-separated: reads outside transactions go to them (docs/deployment.md).
const replicas = (process.env.DATABASE_REPLICA_URLS ?? '').split(',').filter((url) => url !== '');
const store =
  databaseUrl === 'memory:' ? memoryStore() : sqlStore(databaseUrl, replicas.length > 0 ? { replicas } : {});
const app = createApp(store);

try {
  // Tables are created (or checked against the declarations) before the first request.
  await app.ready();
} catch (error) {
  console.error(`The store at ${redactUrl(databaseUrl)} is not usable: ${(error as Error).message}`);
  process.exit(1);
}

const server = createServer(app);
server.on('error', (error: NodeJS.ErrnoException) => {
  console.error(
    error.code === 'EADDRINUSE'
      ? `Port ${port} is taken: start with another one, e.g. PORT=${port + 1} npm start -w examples/library`
      : `The server cannot listen on port ${port}: ${error.message}`,
  );
  process.exit(1);
});
server.listen(port, () => {
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  console.log(`Library API on ${redactUrl(databaseUrl)}: http://localhost:${actual}/api/books?include=author`);
});

/** Stops accepting connections, ends the open streams, lets requests in flight finish, then exits. */
function shutdown(): void {
  closeServer(server).then(async () => {
    await app.close();
    process.exit(0);
  });
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
