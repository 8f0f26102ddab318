import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { FetchHandler } from '@resourcery/fetch';
import type { HttpSuiteTarget } from '@resourcery/testing';

/**
 * Serves a Fetch handler on a free port of 127.0.0.1 with @hono/node-server. `shutdown` is what
 * a Node user of the handler does on `SIGTERM`: stop accepting, end the handler's open streams
 * (`closeStreams`), close each kept-alive connection once idle, until the server is closed.
 */
export async function serveFetch(fetch: FetchHandler): Promise<HttpSuiteTarget> {
  const server = createAdaptorServer({ fetch });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const http = server as { closeAllConnections?: () => void; closeIdleConnections?: () => void };
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        http.closeAllConnections?.();
      }),
    shutdown: () => {
      const closed = new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
      });
      fetch.closeStreams();
      const timer = setInterval(() => http.closeIdleConnections?.(), 100);
      return closed.finally(() => clearInterval(timer));
    },
  };
}
