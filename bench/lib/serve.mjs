import { createServer } from 'node:http';

/**
 * Serves a Node request listener (an Express app, a plain handler...) on 127.0.0.1 at a free
 * port. Contenders return what this answers: `{ port, close }`.
 */
export async function serve(listener) {
  const server = createServer(listener);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: server.address().port,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
