import { createServer } from 'node:http';

/**
 * Serves a Node request listener (an Express app, a plain handler...) on 127.0.0.1 at a free
 * port. Contenders return what this answers: `{ port, close }`; `close` stops the server, then
 * runs `afterClose` (closing the contender's store or database, say).
 */
export function serve(listener, afterClose) {
  return listenOnFreePort(createServer(listener), afterClose);
}

/** Starts any Node HTTP server (one that @hono/node-server made, say) as {@link serve} does. */
export async function listenOnFreePort(server, afterClose) {
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: server.address().port,
    async close() {
      await new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await afterClose?.();
    },
  };
}
