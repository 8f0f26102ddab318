// What the hand-written Express contenders (express-by-hand on memory, express-sql on SQL)
// share beyond the rules of books.mjs: the raw query, problem+json answers, express.json()'s body
// and its errors, 405 and OPTIONS with Allow.
import etag from 'etag';
import express from 'express';
import { JSON_TYPE, notFound, Problem } from './books.mjs';

export const JSON_TYPES = ['application/json', 'application/*+json'];

export function rawQueryOf(req) {
  const mark = req.url.indexOf('?');
  return mark === -1 ? '' : req.url.slice(mark + 1);
}

export function sendProblem(res, problem) {
  res.status(problem.status);
  for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/problem+json');
  res.end(JSON.stringify(problem));
}

/** The body parsed by express.json(); 415 when the request was not JSON, 400 when it was empty. */
export function jsonBody(req) {
  if (req.body === undefined && !JSON_TYPE.test(req.headers['content-type'] ?? '')) {
    throw new Problem(415, 'unsupported_media_type', 'The request body must be JSON (Content-Type: application/json)', {
      headers: { 'Accept-Patch': 'application/json' },
    });
  }
  if (req.body === undefined || req.headers['content-length'] === '0') {
    throw new Problem(400, 'malformed_body', 'The request body is empty: send a JSON object');
  }
  return req.body;
}

export function methodNotAllowed(allow) {
  return (req, res) => {
    if (req.method === 'OPTIONS') {
      res.status(204).setHeader('Allow', allow);
      return res.end();
    }
    sendProblem(
      res,
      new Problem(405, 'method_not_allowed', `${req.method} is not allowed on ${req.originalUrl}; allowed: ${allow}`, {
        headers: { Allow: allow },
      }),
    );
  };
}

/**
 * Sends a record's answer with the ETag of its body (the `etag` package, as Express makes its
 * own), as the library tags show, create and update; `If-None-Match` then answers 304.
 */
export function sendTagged(req, res, body) {
  const text = JSON.stringify(body);
  res.setHeader('ETag', etag(text));
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (req.fresh) return res.status(304).end();
  res.end(text);
}

/** Express errors (body-parser's 400/413/415 and our own problems) as problem+json. */
export function problemFrom(error) {
  if (error instanceof Problem) return error;
  switch (error?.type) {
    case 'entity.parse.failed':
      return new Problem(400, 'malformed_body', `The request body is not valid JSON: ${error.message}`);
    case 'entity.too.large':
      return new Problem(413, 'payload_too_large', 'The request body is larger than the limit of 1048576 bytes', {
        headers: { Connection: 'close' },
      });
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new Problem(415, 'unsupported_media_type', error.message);
  }
  console.error(error);
  return new Problem(500, 'internal_error', 'An unexpected error occurred; it has been logged');
}

/**
 * The app of a hand-written contender: its `/books` router under `/api`, an unknown path a 404
 * problem, every error a problem+json, and neither Express's ETag nor `X-Powered-By`.
 */
export function booksApp(api) {
  api.use((req) => {
    throw notFound(`No resource at ${req.originalUrl.split('?')[0]}`);
  });
  api.use((error, _req, res, _next) => sendProblem(res, problemFrom(error)));
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use('/api', api);
  return app;
}
