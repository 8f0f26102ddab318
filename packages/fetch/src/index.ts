import { type Api, type ApiOptions, createApi } from '@resourcery/core';
import { type NeutralResponse, stopProducer, UNREAD_BODY_LINGER, unknownPathResponse } from '@resourcery/core/adapter';
import { type OpenStreams, streamBody } from './stream-body.js';

/** Options of {@link createFetchHandler}: those of `createApi`, the mount point, and `state` from the `Request`. */
export interface FetchOptions<S = Record<string, unknown>> extends Omit<ApiOptions<S>, 'state'> {
  /** Path prefix the resources live under, e.g. `/api`. Default: none. */
  basePath?: string;
  /** Builds `ctx.state` for each request, e.g. from a verified token. */
  state?: (request: Request) => S | Promise<S>;
}

/**
 * A Fetch API handler; `api` is the neutral core behind it. `closeStreams()` ends its open
 * streams (live events), and those opened after: a runtime's graceful stop waits for the
 * requests in flight, and a stream never ends on its own.
 */
export type FetchHandler = ((request: Request) => Promise<Response>) & {
  readonly api: Api;
  closeStreams(): void;
};

/** Statuses whose responses have no body (a `Response` refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

function toResponse(response: NeutralResponse, method: string, open: OpenStreams): Response {
  const { stream } = response;
  const empty = (response.body === undefined && !stream) || NO_BODY.has(response.status) || method === 'HEAD';
  let { headers } = response;
  // The runtime owns the connection. Given `Connection: close` (a 413 before the body ended),
  // Bun closes at once and a client still sending gets EPIPE instead of the answer; without it,
  // the connection stays while `drain` reads the rest of the body (see `requestBody`).
  if ('Connection' in headers) {
    headers = { ...headers };
    delete headers.Connection;
  }
  if (empty) {
    // A stream not sent is stopped at once.
    if (stream) stopProducer(stream[Symbol.asyncIterator]());
    return new Response(null, { status: response.status, headers });
  }
  return new Response(stream ? streamBody(stream, open) : response.body, { status: response.status, headers });
}

/**
 * The request body as the core reads it, without cancelling the stream when the core stops
 * early (a 413); `drain` then reads and discards the rest (at most 16 MiB or 5 seconds), as the
 * Node adapter's lingering close does: a runtime that keeps the connection (Node under
 * @hono/node-server) finds the next request where it expects it, and a client still sending
 * reads its answer instead of a reset. Past the bounds the stream is cancelled. `request.body`
 * is only touched when there is one to read (@hono/node-server builds a whole Request for it).
 */
function requestBody(request: Request, headers: Record<string, string>) {
  if (request.method === 'GET' || request.method === 'HEAD') return { body: undefined, drain: () => {} };
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let state: 'unread' | 'reading' | 'read' = 'unread';
  const next = async (): Promise<ReadableStreamReadResult<Uint8Array>> => {
    reader ??= request.body?.getReader();
    state = 'reading';
    const result = reader ? await reader.read() : { done: true as const, value: undefined };
    if (result.done) state = 'read';
    return result;
  };
  const body: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({ next, return: async () => ({ done: true, value: undefined }) }),
  };
  const readDeclaredBody = async () => {
    state = 'read';
    return new Uint8Array(await request.arrayBuffer());
  };
  const drain = async (): Promise<void> => {
    const declared = headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined;
    if (state === 'read' || (state === 'unread' && !declared)) return;
    const cancel = () => reader?.cancel().catch(() => undefined);
    const timer = setTimeout(cancel, UNREAD_BODY_LINGER.ms);
    try {
      let discarded = 0;
      for (let chunk = await next(); !chunk.done; chunk = await next()) {
        discarded += chunk.value.byteLength;
        if (discarded > UNREAD_BODY_LINGER.bytes) return void (await cancel());
      }
    } catch {
      // The client gave up: nothing is left to read.
    } finally {
      clearTimeout(timer);
    }
  };
  return { body, readDeclaredBody, drain };
}

function lowerCaseHeaders(headers: Headers): Record<string, string> {
  const result: Record<string, string> = {};
  // A Headers object yields lower-case names, repeated ones joined with ", ".
  headers.forEach((value, name) => {
    result[name] = value;
  });
  return result;
}

/**
 * Serves resources as a Fetch API handler, `(request: Request) => Promise<Response>`: what
 * `Bun.serve`, `Deno.serve`, Hono (`app.all`), Next.js route handlers and Cloudflare Workers
 * take. Requests outside `basePath` get the core's 404 problem. `api` is the core to serve,
 * when built beforehand (`createApi(options)` by default). On shutdown, call `closeStreams()`
 * before the runtime's graceful stop, which waits for the open streams otherwise.
 *
 * @example
 * ```ts
 * const handler = createFetchHandler({ resources: [books], store: memoryStore(), basePath: '/api' });
 * const server = Bun.serve({ port: 3000, fetch: handler });
 * process.on('SIGTERM', () => {
 *   const stopped = server.stop();
 *   handler.closeStreams();
 *   stopped.then(() => process.exit(0));
 * });
 * ```
 */
export function createFetchHandler<S = Record<string, unknown>>(
  options: FetchOptions<S>,
  api: Api = createApi<S>({
    ...options,
    state:
      options.state && ((request) => (options.state as NonNullable<typeof options.state>)(request.native as Request)),
  }),
): FetchHandler {
  const basePath = options.basePath ?? '';
  const open: OpenStreams = { closing: false, ends: new Set() };
  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname;
    const headers = lowerCaseHeaders(request.headers);
    const { body, readDeclaredBody, drain } = requestBody(request, headers);
    let response: NeutralResponse;
    if (path !== basePath && !path.startsWith(`${basePath}/`)) {
      response = unknownPathResponse(path);
    } else {
      response = await api.handle({
        method: request.method,
        path: path.slice(basePath.length),
        basePath,
        rawQuery: url.search.slice(1),
        headers,
        body,
        readDeclaredBody,
        native: request,
      });
    }
    void drain(); // after the answer, not before it
    return toResponse(response, request.method, open);
  };
  const closeStreams = () => {
    open.closing = true;
    for (const end of [...open.ends]) end();
  };
  return Object.assign(handler, { api, closeStreams });
}
