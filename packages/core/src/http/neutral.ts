/**
 * A request as the core sees it, independent of any web framework. Adapters build one from
 * their native request.
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
   * The unread request body. Node's `IncomingMessage` is one. The core reads it only when an
   * action needs it, enforcing the content type and size limit as it goes.
   */
  body?: AsyncIterable<Uint8Array | string>;
  /** A body that an earlier middleware already parsed; used when `body` was consumed. */
  parsedBody?: unknown;
  /** The adapter's native request, exposed to hooks as `ctx.request.native`. */
  native?: unknown;
}

/** A response as the core produces it: adapters copy it onto their native response. */
export interface NeutralResponse {
  status: number;
  headers: Record<string, string>;
  /** Serialized body; absent for 204 and 304. */
  body?: string;
}

/**
 * The headers an adapter writes for a response in one go (`writeHead`): the response's own,
 * plus `Content-Length` from the body when the response has a body and does not set it (so
 * that Node frames it with a length rather than chunked encoding). Changes and answers
 * `response.headers`.
 *
 * @example
 * ```ts
 * const response = await api.handle(request);
 * res.writeHead(response.status, headersToWrite(response));
 * res.end(response.body);
 * ```
 */
export function headersToWrite(response: NeutralResponse): Record<string, string> {
  const { headers, body } = response;
  if (body !== undefined && headers['Content-Length'] === undefined && headers['content-length'] === undefined) {
    headers['Content-Length'] = String(Buffer.byteLength(body));
  }
  return headers;
}

/** Handles one neutral request; what {@link createHandler} returns and adapters call. */
export type RequestHandler = (request: NeutralRequest) => Promise<NeutralResponse>;
