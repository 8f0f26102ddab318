import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type Api,
  type ApiOptions,
  createApi,
  headersToWrite,
  type NeutralRequest,
  type NeutralResponse,
  NotFoundError,
  toProblemResponse,
} from '@resourcery/core';

/** Options of {@link createListener}: those of `createApi`, plus the mount point. */
export interface NodeOptions<S = Record<string, unknown>> extends ApiOptions<S> {
  /** Path prefix the resources live under, e.g. `/api`. Default: none. */
  basePath?: string;
}

/** A `node:http` request listener; `api` is the neutral core behind it. */
export type NodeListener = ((req: IncomingMessage, res: ServerResponse) => void) & { readonly api: Api };

function headersOf(req: IncomingMessage): Record<string, string | undefined> {
  // Node joins repeated headers into one string, except a few (set-cookie): copy only then.
  const raw = req.headers;
  for (const name in raw) if (typeof raw[name] !== 'string') return joined(raw);
  return raw as Record<string, string | undefined>;
}

function joined(raw: IncomingMessage['headers']): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(raw)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

/**
 * Serves resources with plain `node:http`: a request listener over the neutral core.
 * Requests outside `basePath` get the core's 404 problem.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * createServer(createListener({ resources: [books], store: memoryStore(), basePath: '/api' })).listen(3000);
 * ```
 */
export function createListener<S = Record<string, unknown>>(
  options: NodeOptions<S>,
  api: Api = createApi(options),
): NodeListener {
  const basePath = options.basePath ?? '';
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const fullPath = query === -1 ? url : url.slice(0, query);
    const send = (response: NeutralResponse) => {
      res.writeHead(response.status, headersToWrite(response));
      res.end(response.body);
    };
    if (fullPath !== basePath && !fullPath.startsWith(`${basePath}/`)) {
      send(toProblemResponse(new NotFoundError(`No resource at ${fullPath.slice(0, 200)}`)));
      return;
    }
    const request: NeutralRequest = {
      method: req.method ?? 'GET',
      path: fullPath.slice(basePath.length),
      basePath,
      rawQuery: query === -1 ? '' : url.slice(query + 1),
      headers: headersOf(req),
      body: req,
      native: req,
    };
    // handle() never rejects; a failure here is in writing the response (e.g. a bad header from a hook).
    api
      .handle(request)
      .then(send)
      .catch(() => res.destroy());
  };
  return Object.assign(listener, { api });
}

export { answerClientErrors } from './client-errors.js';
