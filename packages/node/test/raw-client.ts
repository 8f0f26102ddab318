import { connect } from 'node:net';

/** What a raw connection read before it closed, and the socket error it met, if any. */
export interface RawReply {
  answer: string;
  /** `EPIPE`, `ECONNRESET`...: the connection was reset instead of closed. */
  error?: string;
}

/** How {@link exchange} sends a body after the request head. */
export interface RawBody {
  /** Bytes of spaces to send; ignored when `text` is given. */
  size: number;
  /** The exact body to send, in one write. */
  text?: string;
  /** Sent with `Transfer-Encoding: chunked` framing (the head must say so). */
  chunked?: boolean;
  /** Wait for `100 Continue` before sending; never sent if the final answer comes first. */
  afterContinue?: boolean;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x20);

/**
 * Opens a connection, writes `head`, then `body` 64 KiB at a time, one chunk per timer tick
 * whatever the server answers meanwhile (a client that keeps sending), and reads everything the
 * server writes until the connection closes.
 */
export function exchange(port: number, head: string, body?: RawBody): Promise<RawReply> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let error: string | undefined;
    let sent = 0;
    let started = false;
    const pump = () => {
      if (!body || socket.destroyed || !socket.writable) return;
      if (body.text !== undefined) {
        socket.end(body.text);
        return;
      }
      if (sent >= body.size) {
        if (body.chunked) socket.end('0\r\n\r\n');
        else socket.end();
        return;
      }
      const chunk = CHUNK.subarray(0, Math.min(CHUNK.byteLength, body.size - sent));
      sent += chunk.byteLength;
      socket.write(
        body.chunked
          ? Buffer.concat([Buffer.from(`${chunk.byteLength.toString(16)}\r\n`), chunk, Buffer.from('\r\n')])
          : chunk,
      );
      setTimeout(pump, 1);
    };
    const start = () => {
      if (started) return;
      started = true;
      pump();
    };
    socket.on('data', (chunk) => {
      answer += chunk;
      if (body?.afterContinue && answer.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) start();
    });
    socket.on('error', (failure: NodeJS.ErrnoException) => {
      error = failure.code ?? failure.message;
    });
    socket.on('close', () => resolve({ answer, error }));
    socket.write(head);
    if (!body) socket.end();
    else if (!body.afterContinue) start();
  });
}

/** The status line of each response in a raw answer (`100 Continue` included). */
export function statusLines(answer: string): string[] {
  return [...answer.matchAll(/^HTTP\/1\.1 \d{3} [^\r\n]*/gm)].map((match) => match[0]);
}
