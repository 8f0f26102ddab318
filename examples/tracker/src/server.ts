import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { memoryStore } from '@resourcery/core';
import { closeServer } from '@resourcery/express';
import { redactUrl, sqlStore } from '@resourcery/sql';
import { createApp } from './app.js';
import { DEVELOPMENT_SECRET } from './principal.js';

/** Unset, the tracker lives in a SQLite file inside the example's folder (`data/` is gitignored). */
function defaultDatabaseUrl(): string {
  const folder = fileURLToPath(new URL('../data/', import.meta.url));
  mkdirSync(folder, { recursive: true });
  return `sqlite:${folder}tracker.sqlite`;
}

function exitWith(message: string): never {
  console.error(message);
  process.exit(1);
}

const port = Number(process.env.PORT || 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  exitWith(
    `PORT=${process.env.PORT} is not a port number: use 0 to 65535, e.g. PORT=3001 npm start -w examples/tracker`,
  );
}
const databaseUrl = process.env.DATABASE_URL || defaultDatabaseUrl();
const secret = process.env.TRACKER_JWT_SECRET || DEVELOPMENT_SECRET;
const store = databaseUrl === 'memory:' ? memoryStore() : sqlStore(databaseUrl);
const app = createApp(store, { secret });

try {
  // Tables are created (or checked against the declarations) before the first request.
  await app.ready();
} catch (error) {
  exitWith(`The store at ${redactUrl(databaseUrl)} is not usable: ${(error as Error).message}`);
}

const server = createServer(app);
server.on('error', (error: NodeJS.ErrnoException) => {
  exitWith(
    error.code === 'EADDRINUSE'
      ? `Port ${port} is taken: start with another one, e.g. PORT=${port + 1} npm start -w examples/tracker`
      : `The server cannot listen on port ${port}: ${error.message}`,
  );
});
server.listen(port, () => {
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  const signing = secret === DEVELOPMENT_SECRET ? 'the development secret' : 'TRACKER_JWT_SECRET';
  console.log(
    `Tracker API on ${redactUrl(databaseUrl)}: http://localhost:${actual}/api/issues (bearer tokens signed with ${signing}; mint one with node examples/tracker/scripts/token.mjs --sub 1 --org 1 --role admin)`,
  );
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
