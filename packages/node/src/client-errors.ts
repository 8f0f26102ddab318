import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpError, type ProblemCode, statusTitle, toProblemResponse } from '@resourcery/core/adapter';

const STATUS_OF: Record<string, number> = { HPE_HEADER_OVERFLOW: 431, HPE_URI_TOO_LONG: 414 };
const CODE_OF: Record<number, ProblemCode> = { 431: 'request_too_large', 414: 'uri_too_long' };

/**
 * Makes a Node HTTP server answer requests it cannot even parse (headers over Node's size
 * limit, a malformed request line) with a problem+json body instead of Node's bare status line,
 * so that every error of the API has the same shape. Works for any `http.Server`, including the
 * one `app.listen()` of Express returns.
 *
 * @example
 * ```ts
 * const server = app.listen(3000);
 * answerClientErrors(server);
 * ```
 */
export function answerClientErrors(server: Server): Server {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset connection, or one whose response already started, cannot take an answer.
    if (error.code === 'ECONNRESET' || !socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    const status = STATUS_OF[error.code ?? ''] ?? 400;
    const detail =
      status === 431
        ? 'The request headers are larger than the server accepts'
        : status === 414
          ? 'The request line is longer than the server accepts'
          : 'The request could not be parsed as HTTP';
    const response = toProblemResponse(new HttpError(status, CODE_OF[status] ?? 'bad_request', { detail }));
    const body = response.body ?? '';
    socket.end(
      `HTTP/1.1 ${status} ${statusTitle(status)}\r\nContent-Type: application/problem+json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
