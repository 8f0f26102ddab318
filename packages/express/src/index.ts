import { type Api, type ApiOptions, createApi, HttpError } from '@resourcery/core';
import { type NeutralRequest } from '@resourcery/core/adapter';
import { closeGracefully, toNeutralRequest as fromNode, writeResponse } from '@resourcery/node';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { mountedExactly, unknownBase } from './mount-paths.js';

/** The Express middleware returned by {@link resourcery}; `api` is the neutral core behind it. */
export type ResourceryMiddleware = RequestHandler & { readonly api: Api };

/** Options of {@link resourcery}: those of `createApi`, with `state` built from Express's `req`. */
export interface ResourceryOptions<S = Record<string, unknown>> extends Omit<ApiOptions<S>, 'state'> {
  /** Builds `ctx.state` for each request, e.g. `(req) => ({ user: req.user })`. */
  state?: (req: Request) => S | Promise<S>;
  /**
   * Pass errors to `next(err)`, for the app's error handler, instead of answering them as
   * `application/problem+json`: what hooks and steps throw, the library's own 4xx (404, 413,
   * 422...) and store errors, as an `HttpError` (`status`, `code`, `detail`, `headers` to send,
   * `errors`, the store error as `cause`), or what was thrown when it is unexpected (a 500, then
   * not logged by the API: the app's handler logs it). An error the producer of a streamed
   * answer (live events) throws after its head was sent is passed on too, the response destroyed.
   * Default `false`.
   */
  forwardErrors?: boolean;
}

/**
 * Translates an Express request into the core's neutral request (for custom routing around
 * `createApi`).
 *
 * @example
 * ```ts
 * app.all('/api/*path', async (req, res) => {
 *   const response = await api.handle(toNeutralRequest(req));
 *   res.status(response.status).set(response.headers).end(response.body);
 * });
 * ```
 */
export function toNeutralRequest(req: Request): NeutralRequest {
  const query = req.url.indexOf('?');
  // An earlier body parser (express.json()) may have consumed the stream already.
  const consumed = req.readableEnded || (req as { _body?: boolean })._body === true;
  return fromNode(req, {
    basePath: req.baseUrl,
    path: query === -1 ? req.url : req.url.slice(0, query),
    rawQuery: query === -1 ? '' : req.url.slice(query + 1),
    consumed,
    parsedBody: req.body,
  });
}

/**
 * Mounts resources on Express 4 or 5. It reads request bodies itself (JSON only, with the
 * resources' size limits) and parses the raw query string itself, so it needs no
 * `express.json()` and does not depend on the app's `query parser` setting. Paths are
 * case-sensitive, the mount path included: Express matches `app.use('/api', ...)` for `/API`
 * too, and the middleware answers that 404 itself (on Express 5, where the mount path is known).
 *
 * @example
 * ```ts
 * const app = express();
 * app.use('/api', resourcery({ resources: [books], store: memoryStore() }));
 * app.listen(3000);
 * ```
 */
export function resourcery<S = Record<string, unknown>>(options: ResourceryOptions<S> | Api): ResourceryMiddleware {
  const api =
    'handle' in options
      ? options
      : createApi<S>({
          ...options,
          state:
            options.state &&
            ((request) => (options.state as NonNullable<typeof options.state>)(request.native as Request)),
        });
  const handling = 'handle' in options || !options.forwardErrors ? undefined : { rejectErrors: true };
  const middleware = (req: Request, res: Response, next: NextFunction): void => {
    if (!mountedExactly(req, middleware)) {
      writeResponse(res, unknownBase(req));
      return;
    }
    api.handle(toNeutralRequest(req), handling).then(
      (response) => {
        res.removeHeader('X-Powered-By'); // do not advertise the framework
        // A stream's producer failing after the head was sent: the response is cut, the app's handler told.
        writeResponse(res, response, handling ? next : undefined);
      },
      (error: unknown) => {
        // A 413 while the body is still coming: whatever the app answers closes the connection gracefully.
        if (error instanceof HttpError && /\bclose\b/i.test(error.headers.Connection ?? '')) closeGracefully(res);
        next(error);
      },
    );
  };
  return Object.assign(middleware, { api });
}

// Graceful shutdown of the server `app.listen()` returns, open streams (live events) ended.
export { closeServer } from '@resourcery/node';
export { type HealthRoutesOptions, healthRoutes } from './health-routes.js';
