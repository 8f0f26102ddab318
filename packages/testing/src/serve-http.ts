import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpSuiteTarget } from './http-target.js';

/**
 * Serves a Node request listener (an Express app, a `node:http` handler) on a free port of
 * 127.0.0.1 and answers it as an {@link HttpSuiteTarget} whose `baseUrl` ends with `basePath`.
 * `close` also drops kept-alive connections, so a suite never waits on idle sockets. With
 * `shutdown` (the adapter's graceful close, e.g. `closeServer` of `@resourcery/node`), the target
 * has a `shutdown` that calls it on the server.
 *
 * @example
 * ```ts
 * httpConformanceSuite('express', () =>
 *   serveHttp(express().use('/api', resourcery({ resources: [bookResource()], store: memoryStore() }))),
 * );
 * ```
 */
export async function serveHttp(
  listener: RequestListener,
  basePath = '/api',
  options: { shutdown?: (server: Server) => Promise<void> } = {},
): Promise<HttpSuiteTarget> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const { shutdown } = options;
  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve(); // shut down already
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
    ...(shutdown && { shutdown: () => shutdown(server) }),
  };
}
