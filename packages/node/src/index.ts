import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Api, type ApiOptions, createApi } from '@resourcery/core';
import { unknownPathResponse } from '@resourcery/core/adapter';
import { toNeutralRequest, writeResponse } from './node-request.js';

/** Options of {@link createListener}: those of `createApi`, plus the mount point. */
export interface NodeOptions<S = Record<string, unknown>> extends ApiOptions<S> {
  /** Path prefix the resources live under, e.g. `/api`. Default: none. */
  basePath?: string;
}

/** A `node:http` request listener; `api` is the neutral core behind it. */
export type NodeListener = ((req: IncomingMessage, res: ServerResponse) => void) & { readonly api: Api };

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
    if (fullPath !== basePath && !fullPath.startsWith(`${basePath}/`)) {
      writeResponse(res, unknownPathResponse(fullPath));
      return;
    }
    const request = toNeutralRequest(req, {
      basePath,
      path: fullPath.slice(basePath.length),
      rawQuery: query === -1 ? '' : url.slice(query + 1),
    });
    // handle() never rejects; a failure here is in writing the response (e.g. a bad header from a hook).
    api
      .handle(request)
      .then((response) => writeResponse(res, response))
      .catch(() => res.destroy());
  };
  return Object.assign(listener, { api });
}

export { answerClientErrors } from './client-errors.js';
export { closeGracefully } from './close-gracefully.js';
export { deferContinue } from './defer-continue.js';
export { toNeutralRequest, writeResponse } from './node-request.js';
export { closeServer } from './open-streams.js';
export type { StreamErrorHandler } from './write-stream.js';
