import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpSuiteTarget } from './http-target.js';

/**
 * Serves a Node request listener (an Express app, a `node:http` handler) on a free port of
 * 127.0.0.1 and answers it as an {@link HttpSuiteTarget} whose `baseUrl` ends with `basePath`.
 * `close` also drops kept-alive connections, so a suite never waits on idle sockets.
 *
 * @example
 * ```ts
 * httpConformanceSuite('express', () =>
 *   serveHttp(express().use('/api', resourcery({ resources: [bookResource()], store: memoryStore() }))),
 * );
 * ```
 */
export async function serveHttp(listener: RequestListener, basePath = '/api'): Promise<HttpSuiteTarget> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
