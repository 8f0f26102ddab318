import type { Api } from '@resourcery/core';
import type { ResponseStream } from '@resourcery/core/adapter';

/** A request for {@link callApi}: method and path below the mount point, and what else it has. */
export interface CallInit {
  method: string;
  /** Below the mount point, with or without a query string: `/books?page=2`. */
  path: string;
  /** The mount point the API believes it is under (for `Location` and `Link`). Default `/api`. */
  basePath?: string;
  headers?: Record<string, string>;
  /** A JSON body (sent with `Content-Type: application/json` unless `headers` say otherwise), or raw text. */
  body?: unknown;
}

/** What {@link callApi} answers: the response with its body parsed when it is JSON. */
export interface CallReply {
  status: number;
  headers: Record<string, string>;
  /** The parsed JSON body (`undefined` when there is none, or when it is streamed). */
  body: unknown;
  /**
   * A streamed body (live events' `text/event-stream`), unread: iterate it for as many chunks as
   * the test needs, then stop (`break`, or `return()`), since it never ends on its own.
   */
  stream?: ResponseStream;
}

/**
 * Calls an API in process, without a server or socket: for testing your own hooks and steps
 * through the whole lifecycle (routing, validation, problems) as a client would see them.
 *
 * @example
 * ```ts
 * const api = createApi({ resources: [books], store: memoryStore() });
 * const created = await callApi(api, { method: 'POST', path: '/books', body: { name: 'Dune', author: 'Herbert' } });
 * expect(created.status).toBe(200);
 *
 * // A streamed answer: read its first chunk, then stop it (break calls its return()).
 * const events = await callApi(api, { method: 'GET', path: '/books/events', headers: { accept: 'text/event-stream' } });
 * for await (const chunk of events.stream ?? []) {
 *   expect(chunk).toMatch(/^(:|id:|event:|data:)/m);
 *   break;
 * }
 * ```
 */
export async function callApi(api: Api, init: CallInit): Promise<CallReply> {
  const query = init.path.indexOf('?');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
  let body: AsyncIterable<Uint8Array> | undefined;
  if (init.body !== undefined) {
    const text = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    const bytes = new TextEncoder().encode(text);
    headers['content-type'] ??= 'application/json';
    headers['content-length'] ??= String(bytes.byteLength);
    body = (async function* () {
      yield bytes;
    })();
  }
  const response = await api.handle({
    method: init.method.toUpperCase(),
    path: query === -1 ? init.path : init.path.slice(0, query),
    basePath: init.basePath ?? '/api',
    rawQuery: query === -1 ? '' : init.path.slice(query + 1),
    headers,
    body,
  });
  const reply: CallReply = {
    status: response.status,
    headers: response.headers,
    body: response.body === undefined ? undefined : JSON.parse(response.body),
  };
  if (response.stream) reply.stream = response.stream;
  return reply;
}
