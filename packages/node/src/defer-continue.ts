import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Makes a Node HTTP server send `100 Continue` to a request with `Expect: 100-continue` only
 * when something starts reading its body, instead of at once before any handler runs (Node's
 * default). A request the API refuses before reading (a declared `Content-Length` over the
 * limit: 413; a before hook's 401) is answered straight away and the client never sends the
 * body (RFC 9110 §10.1.1); such an answer closes the connection, since the client may or may not
 * send the body after it. Other routes of the server are served as before: reading the body, as
 * `express.json()` or any stream consumer does, sends the `100 Continue`.
 *
 * @example
 * ```ts
 * const server = createServer(createListener({ resources: [books], store, basePath: '/api' }));
 * deferContinue(answerClientErrors(server)).listen(3000);
 * ```
 */
export function deferContinue<T extends Server>(server: T): T {
  if (deferring.has(server)) return server; // a second listener would serve each request twice
  deferring.add(server);
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    continueOnRead(req, res);
    server.emit('request', req, res);
  });
  return server;
}

const deferring = new WeakSet<Server>();

/** Sends the `100 Continue` when the body is first read, unless the final answer came first. */
function continueOnRead(req: IncomingMessage, res: ServerResponse): void {
  const length = req.headers['content-length'];
  // No body to wait for: the 100 may be left out (RFC 9110 §10.1.1).
  if (req.headers['transfer-encoding'] === undefined && (length === undefined || Number(length) === 0)) return;
  const keepAlive = res.shouldKeepAlive;
  // Answered without the 100, the client may send the body or not: the connection cannot be reused.
  res.shouldKeepAlive = false;
  const onListener = (event: string | symbol) => {
    if (event === 'data' || event === 'readable') send();
  };
  const send = () => {
    req.removeListener('newListener', onListener);
    req.removeListener('resume', send);
    if (res.headersSent || res.writableEnded) return;
    res.shouldKeepAlive = keepAlive;
    res.writeContinue();
  };
  req.on('newListener', onListener);
  req.once('resume', send);
}
