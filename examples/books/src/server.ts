import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { redactUrl } from '@resourcery/sql';
import { createApp } from './app.js';
import { storeFromUrl } from './store-from-url.js';

/** Unset, books live in a SQLite file inside the example's folder (`data/` is gitignored). */
function defaultDatabaseUrl(): string {
  const folder = fileURLToPath(new URL('../data/', import.meta.url));
  mkdirSync(folder, { recursive: true });
  return `sqlite:${folder}books.sqlite`;
}

const port = Number(process.env.PORT ?? 3000);
const databaseUrl = process.env.DATABASE_URL || defaultDatabaseUrl();
const store = storeFromUrl(databaseUrl);
const app = createApp(store, { logRequests: true });

const server = app.listen(port, () => {
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  console.log(`Books API on ${redactUrl(databaseUrl)}: http://localhost:${actual}/api/books`);
  console.log(`API docs: http://localhost:${actual}/api/docs`);
});

function shutdown(signal: string): void {
  console.log(`${signal} received, shutting down`);
  server.close(async () => {
    await store.close?.();
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
