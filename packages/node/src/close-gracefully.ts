import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { UNREAD_BODY_LINGER } from '@resourcery/core/adapter';

/**
 * Makes a response close the connection once it is sent (`Connection: close`), and close it
 * gracefully when the request's body was not received whole: a lingering close, as Apache and
 * nginx do. Closing a socket with unread bytes resets the connection, and a client still sending
 * its body then gets EPIPE or ECONNRESET instead of the answer (a 413, a 401). So the server
 * ends its side after the response, then reads and discards what the client still sends until
 * the body is complete, the client closes its side, 16 MiB were discarded or 5 seconds passed,
 * and only then closes. `writeResponse` does it for every response that closes the connection;
 * call it before the response is written when something else writes it.
 *
 * @example
 * ```ts
 * // An error answered by the host's error handler while the body is still coming:
 * if (!req.complete) closeGracefully(res);
 * next(error);
 * ```
 */
export function closeGracefully(res: ServerResponse): void {
  res.shouldKeepAlive = false;
  const req = res.req as IncomingMessage | undefined;
  const socket = res.socket as (Socket & { destroySoon?: () => void }) | null;
  const destroySoon = socket?.destroySoon;
  if (!req || req.complete || !socket || typeof destroySoon !== 'function') return;
  // Node ends a response that closes the connection with `socket.destroySoon()`: end, then
  // destroy as soon as the response is flushed. This socket lingers instead.
  socket.destroySoon = () => {
    socket.destroySoon = destroySoon;
    if (req.complete) socket.destroySoon();
    else linger(socket, req);
  };
}

function linger(socket: Socket, req: IncomingMessage): void {
  socket.end(); // the response is sent: the client reads it, stops sending and closes its side
  let discarded = 0;
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, UNREAD_BODY_LINGER.ms);
  req.on('data', (chunk: Uint8Array) => {
    discarded += chunk.byteLength;
    if (discarded > UNREAD_BODY_LINGER.bytes) close();
  });
  req.on('error', () => undefined); // a client that gives up is what this waits for
  req.once('end', close); // the whole body came: nothing is left unread
  socket.once('end', close);
  socket.once('close', () => clearTimeout(timer));
  req.resume();
}
