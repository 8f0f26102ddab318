import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy to a database server that a test can cut and restore: `stop` closes the port and
 * drops every open connection, as a database that goes down would; `start` serves it again.
 *
 * @example
 * ```ts
 * const proxy = new TcpProxy('127.0.0.1', 5432);
 * const port = await proxy.start();
 * await proxy.stop(); // clients now get ECONNREFUSED on `port`
 * await proxy.start(port);
 * ```
 */
export class TcpProxy {
  readonly #host: string;
  readonly #port: number;
  readonly #sockets = new Set<Socket>();
  #server: Server | undefined;

  constructor(host: string, port: number) {
    this.#host = host;
    this.#port = port;
  }

  /** Listens on `port` (0: any free port) of 127.0.0.1 and answers the port. */
  async start(port = 0): Promise<number> {
    const server = createServer((client) => {
      const upstream = connect(this.#port, this.#host);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    this.#server = server;
    return (server.address() as { port: number }).port;
  }

  /** Stops listening and drops every connection. */
  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A port of 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
