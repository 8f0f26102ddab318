/**
 * A request as the core sees it, independent of any web framework or runtime. Adapters build
 * one from their native request.
 *
 * @example
 * ```ts
 * const request: NeutralRequest = { method: 'GET', path: '/books/7', basePath: '/api', rawQuery: '', headers: {} };
 * ```
 */
export interface NeutralRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Path below the mount point, e.g. `/books/7` (no query string). */
  path: string;
  /** Where the handler is mounted, e.g. `/api`; used to build `Location` and `Link` URLs. */
  basePath: string;
  /** The raw query string without the leading `?` (the core parses it itself). */
  rawQuery: string;
  /** Lower-case header names; repeated headers joined with `, `. */
  headers: Record<string, string | undefined>;
  /**
   * The unread request body as byte chunks: a Node `IncomingMessage`, a Web `ReadableStream`,
   * any async iterable. The core reads it only when an action needs it, enforcing the content
   * type and size limit as it goes.
   */
  body?: AsyncIterable<Uint8Array | string>;
  /**
   * An adapter's faster way to read a whole body whose `Content-Length` is declared and within
   * the limit (the runtime delivers no more than declared); `body` is used otherwise.
   */
  readDeclaredBody?: () => Promise<Uint8Array>;
  /** A body that an earlier middleware already parsed; used when `body` was consumed. */
  parsedBody?: unknown;
  /** The adapter's native request, exposed to hooks as `ctx.request.native`. */
  native?: unknown;
}

/** A response as the core produces it: adapters copy it onto their native response. */
export interface NeutralResponse {
  status: number;
  headers: Record<string, string>;
  /** Serialized body; absent for 204 and 304, and with `stream`. */
  body?: string;
  /**
   * A body written as it is produced instead (`text/event-stream`, live events); see
   * {@link ResponseStream}.
   */
  stream?: ResponseStream;
}

/**
 * A body written as it is produced (`text/event-stream`). An adapter writes each chunk as it
 * comes and asks for the next only once the client has taken it (backpressure: the producer
 * bounds what waits); it calls `return()` when the client goes away, and ends the response when
 * the iteration ends.
 *
 * @example
 * ```ts
 * if (response.stream) for await (const chunk of response.stream) res.write(chunk);
 * ```
 */
export type ResponseStream = AsyncIterable<string>;

/** Joins byte chunks into one array (no copy for a single chunk). */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  let size = 0;
  for (const chunk of chunks) size += chunk.byteLength;
  const joined = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  return joined;
}
