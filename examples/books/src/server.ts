import { createApp } from './app.js';
import { storeFromUrl } from './store-from-url.js';

const port = Number(process.env.PORT ?? 3000);
const databaseUrl = process.env.DATABASE_URL ?? 'memory:';
const store = storeFromUrl(databaseUrl);
const app = createApp(store, { logRequests: true });

const server = app.listen(port, () => {
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  console.log(`Books API on ${databaseUrl}: http://localhost:${actual}/api/books`);
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
