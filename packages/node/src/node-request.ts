import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NeutralRequest, NeutralResponse } from '@resourcery/core/adapter';
import { closeGracefully } from './close-gracefully.js';
import { closing } from './open-streams.js';
import { logStreamError, type StreamErrorHandler, writeStream } from './write-stream.js';

/** Lower-case headers with repeated ones joined by `, ` (Node keeps a few, like set-cookie, as arrays). */
function headersOf(req: IncomingMessage): Record<string, string | undefined> {
  const raw = req.headers;
  for (const name in raw) {
    if (typeof raw[name] !== 'string') {
      const headers: Record<string, string | undefined> = {};
      for (const [key, value] of Object.entries(raw)) headers[key] = Array.isArray(value) ? value.join(', ') : value;
      return headers;
    }
  }
  return raw as Record<string, string | undefined>;
}

/**
 * Reads a body whose `Content-Length` was declared within the limit (Node's parser never
 * delivers more than declared) with `data`/`end` listeners, cheaper than async iteration; a
 * stream something else already started reading is iterated instead.
 */
function readDeclared(req: IncomingMessage): Promise<Uint8Array> {
  if (req.destroyed) return Promise.reject(new Error('The request was closed before its body was read'));
  if (req.readableEnded || req.readableFlowing !== null) return collect(req);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onEnd = () => done(() => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    const onError = (error: Error) => done(() => reject(error));
    const onClose = () => done(() => reject(new Error('The request was closed before its body was read')));
    const done = (settle: () => void) => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
      req.removeListener('close', onClose);
      settle();
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

async function collect(req: IncomingMessage): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/**
 * The body as chunks for a reader that may stop early (a chunked body over the limit): stopping
 * leaves the request readable, where iterating `req` itself would destroy it, so that the rest
 * of the body can still be drained (and counted) while the connection closes gracefully.
 */
function chunksOf(req: IncomingMessage): AsyncIterable<Uint8Array> {
  return { [Symbol.asyncIterator]: () => req.iterator({ destroyOnReturn: false }) };
}

/**
 * Translates a Node request into the core's neutral request. `path` is below `basePath`.
 * `consumed` says that an earlier body parser (`express.json()`) read the stream already,
 * leaving what it parsed in `parsedBody`.
 *
 * @example
 * ```ts
 * const request = toNeutralRequest(req, { basePath: '/api', path: '/books', rawQuery: 'page=2' });
 * writeResponse(res, await api.handle(request));
 * ```
 */
export function toNeutralRequest(
  req: IncomingMessage,
  where: { basePath: string; path: string; rawQuery: string; consumed?: boolean; parsedBody?: unknown },
): NeutralRequest {
  const consumed = where.consumed === true;
  return {
    method: req.method ?? 'GET',
    path: where.path,
    basePath: where.basePath,
    rawQuery: where.rawQuery,
    headers: headersOf(req),
    body: consumed ? undefined : chunksOf(req),
    readDeclaredBody: consumed ? undefined : () => readDeclared(req),
    parsedBody: consumed ? where.parsedBody : undefined,
    native: req,
  };
}

/**
 * Writes a neutral response in one `writeHead`, adding `Content-Length` when the response has
 * a body and does not set it (so that Node frames it with a length, not chunked encoding).
 * Headers set earlier on `res` (CORS...) are kept; the response's win on the same name. A
 * response that closes the connection before the request's body came whole (a 413) closes it
 * gracefully ({@link closeGracefully}), so that the client reads it instead of a reset. A
 * streamed response (`stream`, live events) is written as it is produced ({@link writeStream});
 * an error its producer throws destroys the response and goes to `onStreamError` (default: logged
 * with `console.error`).
 *
 * @example
 * ```ts
 * writeResponse(res, await api.handle(toNeutralRequest(req, { basePath: '', path: req.url, rawQuery: '' })));
 * ```
 */
export function writeResponse(
  res: ServerResponse,
  response: NeutralResponse,
  onStreamError: StreamErrorHandler = logStreamError,
): void {
  const { headers, body, stream } = response;
  if (stream) {
    // Chunked, as it comes: a length would be a lie, and nothing may hold it back to count it.
    delete headers['Content-Length'];
    delete headers['content-length'];
  } else if (body !== undefined && headers['Content-Length'] === undefined && headers['content-length'] === undefined) {
    headers['Content-Length'] = String(Buffer.byteLength(body));
  }
  const connection = headers.Connection ?? headers.connection;
  if (closing(res)) res.shouldKeepAlive = false;
  if (!res.shouldKeepAlive || (connection !== undefined && /\bclose\b/i.test(connection))) closeGracefully(res);
  res.writeHead(response.status, headers);
  if (stream) writeStream(res, stream, onStreamError);
  else res.end(body);
}
