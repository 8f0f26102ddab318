import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { HttpSuiteTarget } from '@resourcery/testing';

/** Serves a Fetch handler on a free port of 127.0.0.1 with @hono/node-server. */
export async function serveFetch(fetch: (request: Request) => Promise<Response>): Promise<HttpSuiteTarget> {
  const server = createAdaptorServer({ fetch });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
