import type { Api, HealthOptions } from '@resourcery/core';
import { writeResponse } from '@resourcery/node';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Options of {@link healthRoutes}. */
export interface HealthRoutesOptions extends HealthOptions {
  /** The liveness path. Default `/healthz`. */
  live?: string;
  /** The readiness path. Default `/readyz`. */
  ready?: string;
}

/**
 * Answers the two probes of orchestrators and load balancers: `GET /healthz` (liveness: 200
 * while the process runs) and `GET /readyz` (readiness: 200 when the stores answer a cheap query
 * within `timeoutMs`, else 503 problem+json). Other requests go on.
 *
 * @example
 * ```ts
 * const api = resourcery({ resources: [books], store });
 * app.use(healthRoutes(api.api, { timeoutMs: 2000 }));
 * app.use('/api', api);
 * ```
 */
export function healthRoutes(
  api: Api,
  { live = '/healthz', ready = '/readyz', ...options }: HealthRoutesOptions = {},
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const probe = req.path === live ? 'live' : req.path === ready ? 'ready' : undefined;
    if (!probe || (req.method !== 'GET' && req.method !== 'HEAD')) {
      next();
      return;
    }
    api.health(probe, options).then((response) => writeResponse(res, response), next);
  };
}
