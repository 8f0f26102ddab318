import type { Server, ServerResponse } from 'node:http';

/** What a server being shut down knows: that it closes, and how to end each of its open streams. */
interface ServerState {
  /** Set by {@link closeServer}: resolves when every connection is closed. */
  closed?: Promise<void>;
  readonly streams: Set<() => void>;
}

/** Per server (`res.socket.server`, which Node sets on every connection it accepts). */
const states = new WeakMap<object, ServerState>();

function stateOf(server: object): ServerState {
  let state = states.get(server);
  if (!state) {
    state = { streams: new Set() };
    states.set(server, state);
  }
  return state;
}

function serverOf(res: ServerResponse): object | undefined {
  return (res.socket as { server?: object } | null)?.server;
}

/** Whether the server of `res` is shutting down ({@link closeServer}): its answers close their connection. */
export function closing(res: ServerResponse): boolean {
  const server = serverOf(res);
  return server !== undefined && states.get(server)?.closed !== undefined;
}

/**
 * Keeps `end` (stops a stream and ends its response) until the answered `untrack` is called, so
 * that {@link closeServer} ends the stream; a set entry per open stream, nothing per request.
 */
export function trackStream(res: ServerResponse, end: () => void): () => void {
  const server = serverOf(res);
  if (server === undefined) return () => {};
  const { streams } = stateOf(server);
  streams.add(end);
  return () => streams.delete(end);
}

/**
 * Shuts a Node HTTP server down gracefully: it stops accepting connections, ends the open
 * streams of the API (live events: each stream's producer is stopped, then its response ended),
 * lets the requests in flight finish, answering them with `Connection: close`, closes each
 * kept-alive connection once it is idle, and resolves when every connection is closed. Works for
 * any `http.Server` whose API responses go through this package (`createListener`, Express's
 * `resourcery`, `writeResponse`).
 *
 * @example
 * ```ts
 * const server = createServer(createListener({ resources: [books], store, basePath: '/api' })).listen(3000);
 * process.on('SIGTERM', () => closeServer(server).then(() => store.close()));
 * ```
 */
export function closeServer(server: Server): Promise<void> {
  const state = stateOf(server);
  if (state.closed) return state.closed;
  // A new request on a kept-alive connection is answered, then its connection closed.
  server.prependListener('request', (_req, res: ServerResponse) => {
    res.shouldKeepAlive = false;
  });
  const closed = new Promise<void>((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
  });
  // A kept-alive connection becomes idle when its last response is sent: close it then.
  const timer = setInterval(() => server.closeIdleConnections(), 100);
  timer.unref();
  state.closed = closed.finally(() => clearInterval(timer));
  for (const end of [...state.streams]) end();
  server.closeIdleConnections();
  return state.closed;
}
