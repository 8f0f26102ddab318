import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpError, type ProblemCode } from '@resourcery/core';
import { PROBLEM_STATUS, statusTitle, toProblemResponse } from '@resourcery/core/adapter';

const CODE_OF: Record<string, ProblemCode> = {
  HPE_HEADER_OVERFLOW: 'request_too_large',
  HPE_URI_TOO_LONG: 'uri_too_long',
};

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
    const code = CODE_OF[error.code ?? ''] ?? 'bad_request';
    const status = PROBLEM_STATUS[code];
    const detail =
      status === 431
        ? 'The request headers are larger than the server accepts'
        : status === 414
          ? 'The request line is longer than the server accepts'
          : 'The request could not be parsed as HTTP';
    const response = toProblemResponse(new HttpError(status, code, { detail }));
    const body = response.body ?? '';
    socket.end(
      `HTTP/1.1 ${status} ${statusTitle(status)}\r\nContent-Type: application/problem+json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
