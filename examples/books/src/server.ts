import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { answerClientErrors, closeServer, deferContinue } from '@resourcery/node';
import { redactUrl } from '@resourcery/sql';
import { createApp } from './app.js';
import { exitWith, listenFailure, reasonOf, storeFailure } from './start-up-errors.js';
import { storeFromUrl } from './store-from-url.js';
import { startTracing } from './tracing.js';

/** Unset, books live in a SQLite file inside the example's folder (`data/` is gitignored). */
function defaultDatabaseUrl(): string {
  const folder = fileURLToPath(new URL('../data/', import.meta.url));
  mkdirSync(folder, { recursive: true });
  return `sqlite:${folder}books.sqlite`;
}

const port = Number(process.env.PORT || 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  exitWith(`PORT=${process.env.PORT} is not a port number: use 0 to 65535, e.g. PORT=3001 npm start`);
}
const databaseUrl = process.env.DATABASE_URL || defaultDatabaseUrl();
/** How long a shutdown waits for requests in flight before giving up with exit code 1. */
const shutdownTimeoutMs = Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 10_000);
let store: ReturnType<typeof storeFromUrl>;
// With OTEL_TRACES_EXPORTER=otlp (or console), every request is traced, its store queries too.
let tracing: ReturnType<typeof startTracing>;
try {
  store = storeFromUrl(databaseUrl);
  tracing = startTracing();
} catch (error) {
  exitWith(reasonOf(error));
}
const app = createApp(store, { logRequests: true });
// Connect, create the tables or check that they fit the declaration, before listening: a database
// that cannot be reached, or a table that does not fit, stops the start with one line.
try {
  await app.ready();
} catch (error) {
  exitWith(storeFailure(error, databaseUrl));
}

const server = createServer(app);
// Requests Node cannot parse (oversized headers...) get a problem+json too.
answerClientErrors(server);
// `Expect: 100-continue`: the 100 only once the body is read, so that a 413 or 401 comes at once.
deferContinue(server);

server.once('error', (error: NodeJS.ErrnoException) => exitWith(listenFailure(error, port)));
server.listen(port, () => {
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  console.log(`Books API on ${redactUrl(databaseUrl)}: http://localhost:${actual}/api/books`);
  console.log(`API docs: http://localhost:${actual}/api/docs`);
});

if (process.env.REPORT_MEMORY === '1') {
  // For bench/soak.mjs: one line of memory figures per second on stdout.
  setInterval(() => {
    const { rss, heapUsed } = process.memoryUsage();
    console.log(`memory rss=${rss} heapUsed=${heapUsed}`);
  }, 1000).unref();
}

let shuttingDown = false;
/**
 * Graceful shutdown (`closeServer`): stop accepting connections, end the open streams, let
 * requests in flight finish (answered with `Connection: close`: keep-alive clients reconnect
 * elsewhere; idle connections are closed), close the store's pool, exit 0. If that takes longer
 * than `SHUTDOWN_TIMEOUT_MS` (default 10 s), exit 1.
 */
function shutdown(signal: string): void {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`${signal} received, shutting down`);
  setTimeout(() => {
    console.error(`shutdown did not finish within ${shutdownTimeoutMs} ms, exiting`);
    process.exit(1);
  }, shutdownTimeoutMs).unref();
  closeServer(server).then(async () => {
    try {
      await store.close?.();
      // Sends the spans still batched; a collector out of reach loses them, not the shutdown.
      await tracing?.shutdown().catch((error) => console.error(`traces not sent: ${reasonOf(error)}`));
      console.log('shut down');
      process.exit(0);
    } catch (error) {
      console.error('closing the store failed', error);
      process.exit(1);
    }
  });
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
