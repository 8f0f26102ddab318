import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

/** Starts an Express app on a free port; answers its `/api` URL and a close function. */
export async function serve(app: Express): Promise<{ api: string; close: () => Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    api: `http://127.0.0.1:${port}/api`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** `fetch` with a JSON body and an optional bearer token. */
export function call(url: string, method = 'GET', body?: unknown, token?: string): Promise<Response> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  return fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}
