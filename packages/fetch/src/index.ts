import {
  type Api,
  type ApiOptions,
  createApi,
  HttpError,
  type NeutralResponse,
  toProblemResponse,
} from '@resourcery/core/adapter';

/** Options of {@link createFetchHandler}: those of `createApi`, the mount point, and `state` from the `Request`. */
export interface FetchOptions<S = Record<string, unknown>> extends Omit<ApiOptions<S>, 'state'> {
  /** Path prefix the resources live under, e.g. `/api`. Default: none. */
  basePath?: string;
  /** Builds `ctx.state` for each request, e.g. from a verified token. */
  state?: (request: Request) => S | Promise<S>;
}

/** A Fetch API handler; `api` is the neutral core behind it. */
export type FetchHandler = ((request: Request) => Promise<Response>) & { readonly api: Api };

/** Statuses whose responses have no body (a `Response` refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

function toResponse(response: NeutralResponse, method: string): Response {
  const empty = response.body === undefined || NO_BODY.has(response.status) || method === 'HEAD';
  return new Response(empty ? null : response.body, { status: response.status, headers: response.headers });
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
 * take. Requests outside `basePath` get the core's 404 problem.
 *
 * @example
 * ```ts
 * const handler = createFetchHandler({ resources: [books], store: memoryStore(), basePath: '/api' });
 * Bun.serve({ port: 3000, fetch: handler });
 * ```
 */
export function createFetchHandler<S = Record<string, unknown>>(options: FetchOptions<S>): FetchHandler {
  const basePath = options.basePath ?? '';
  const { state } = options;
  const api = createApi<S>({ ...options, state: state && ((request) => state(request.native as Request)) });
  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname;
    if (path !== basePath && !path.startsWith(`${basePath}/`)) {
      const problem = toProblemResponse(
        new HttpError(404, 'not_found', { detail: `No resource at ${path.slice(0, 200)}` }),
      );
      problem.headers['X-Content-Type-Options'] = 'nosniff';
      return toResponse(problem, request.method);
    }
    const response = await api.handle({
      method: request.method,
      path: path.slice(basePath.length),
      basePath,
      rawQuery: url.search.slice(1),
      headers: lowerCaseHeaders(request.headers),
      body: (request.body as AsyncIterable<Uint8Array> | null) ?? undefined,
      readDeclaredBody: async () => new Uint8Array(await request.arrayBuffer()),
      native: request,
    });
    return toResponse(response, request.method);
  };
  return Object.assign(handler, { api });
}
