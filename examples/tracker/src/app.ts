import 'reflect-metadata';
import { bearerJwt, type Hooks } from '@resourcery/core';
import { unknownPathResponse } from '@resourcery/core/adapter';
import { type Store } from '@resourcery/core/store';
import { resourcery } from '@resourcery/express';
import express, { type Express } from 'express';
import { DEVELOPMENT_SECRET, trackerPrincipal } from './principal.js';
import { resources } from './resources.js';

/** Options of {@link createApp}. */
export interface TrackerOptions {
  /** The HS256 secret bearer tokens are signed with. Default: the development secret. */
  readonly secret?: string;
  /** Hooks of the whole API, run around every resource's own (an audit trail, a team's rules). */
  readonly hooks?: Hooks<unknown>;
}

/**
 * The issue tracker of CONTRACT part 4 (users, projects, labels, issues, comments) on an Express
 * app, under `/api`: every request carries a bearer JWT (`sub`, `org`, `role`); each
 * organization sees only its own records; viewers read, members write, admins do everything.
 */
export function createApp(
  store: Store,
  options: TrackerOptions = {},
): Express & { ready(): Promise<void>; close(): Promise<void> } {
  const app = express();
  app.disable('x-powered-by');
  const api = resourcery({
    resources,
    store,
    authenticate: bearerJwt({ secret: options.secret ?? DEVELOPMENT_SECRET, principal: trackerPrincipal }),
    tenancy: { field: 'orgId', of: (principal) => principal.org },
    ...(options.hooks ? { hooks: options.hooks } : {}),
    // With `authenticate`, the document declares the bearer scheme, 401 and 403 on every operation.
    openapi: { title: 'Tracker API', version: '1.0.0', license: { name: 'MIT', identifier: 'MIT' } },
  });
  app.use('/api', api);
  app.use((req, res) => {
    const problem = unknownPathResponse(req.path);
    res.status(problem.status).set(problem.headers).end(problem.body);
  });
  return Object.assign(app, { ready: () => api.api.ready(), close: () => api.api.close() });
}
