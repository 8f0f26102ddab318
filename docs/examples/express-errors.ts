// One error shape on Express, whoever refuses the request: the API, express.json() or the app.
import { defineResource } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { resourcery } from '@resourcery/express';
import { IsString, Length } from 'class-validator';
import express, { type ErrorRequestHandler, type Express } from 'express';

class Note {
  @IsString() @Length(1, 500) text!: string;
}
const notes = defineResource({ name: 'note', model: Note });

/** The app's error handler: `{ "error": { status, message } }` for every error of every route. */
const answerError: ErrorRequestHandler = (error, _req, res, _next) => {
  const status = Number(error?.status ?? error?.statusCode ?? 500);
  if (status >= 500) console.error(error); // a 4xx is the client's business, not the log's
  res
    .status(status)
    .set(error?.headers ?? {}) // Allow, Retry-After, WWW-Authenticate, Connection...
    .json({ error: { status, message: status < 500 ? error.message : 'Internal error' } });
};

/**
 * express.json() runs first (the app's own routes need it), so it parses the API's bodies too,
 * and refuses broken JSON or a body over its limit before the API sees them. With
 * `forwardErrors`, the API's errors go to the same handler: one shape for all of them.
 */
export function appShapedErrors(store: Store): Express {
  const app = express();
  app.use(express.json({ limit: '1mb' })); // the API's own limit: 1 MiB unless `bodyLimit` says otherwise
  app.use('/api', resourcery({ resources: [notes], store, forwardErrors: true }));
  app.post('/feedback', (req, res) => res.json({ received: req.body }));
  app.use(answerError);
  return app;
}

/**
 * Mounted before express.json(), the API reads its own bodies and answers every error of its
 * routes as application/problem+json; express.json() serves the app's routes only.
 */
export function problemJsonApi(store: Store): Express {
  const app = express();
  app.use('/api', resourcery({ resources: [notes], store }));
  app.use(express.json());
  app.post('/feedback', (req, res) => res.json({ received: req.body }));
  app.use(answerError);
  return app;
}
