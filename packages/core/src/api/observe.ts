import type { Span, Tracer } from '@opentelemetry/api';
import type { NeutralRequest, NeutralResponse } from '../http/neutral.js';
import type { ErrorLogger } from '../http/problem.js';
import { requestIdOf } from '../http/request-id.js';
import { type Logger, logRequest, type RequestLine } from './logger.js';
import { failedAnswer, withNosniff } from './to-problem.js';
import { endActionSpan } from './tracing.js';

/** What an observed request's answer learns of it: its resource and action, and its span. */
export interface Seen {
  readonly requestId: string;
  /** The tracer of this request; absent when it is not traced. */
  readonly tracer: Tracer | undefined;
  resource: string | undefined;
  action: string | undefined;
  span: Span | undefined;
  /** How many times the store ran a transaction or a write again after a conflict (see `retries.ts`). */
  retries: number;
}

/** Answers one request; with `seen`, tells it what it finds and traces with its tracer. */
export type Answer = (request: NeutralRequest, seen?: Seen) => Promise<NeutralResponse>;

/**
 * The handler of requests that are logged or traced: a request id (sent back with a `logger`),
 * one log line and the action's span ended with the status. Only these requests pay for it.
 */
export function observed(
  answer: Answer,
  logger: Logger | undefined,
  logError: ErrorLogger,
): (request: NeutralRequest, rejectErrors: boolean, tracer: Tracer | undefined) => Promise<NeutralResponse> {
  /** Logs the request and ends its span. */
  const finish = (request: NeutralRequest, seen: Seen, started: number, response: NeutralResponse, error: unknown) => {
    if (logger) {
      response.headers['X-Request-Id'] = seen.requestId;
      const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
      const { requestId, resource, action, span } = seen;
      const { method, path } = request;
      const line: RequestLine = { requestId, method, path, resource, action, status: response.status, durationMs };
      if (span) line.traceId = span.spanContext().traceId;
      if (seen.retries > 0) line.retries = seen.retries;
      logRequest(logger, line, error);
    }
    if (seen.span) endActionSpan(seen.span, response.status, error);
  };
  return async (request, rejectErrors, tracer) => {
    const started = performance.now();
    const requestId = requestIdOf(request.headers['x-request-id']);
    const seen: Seen = { requestId, tracer, resource: undefined, action: undefined, span: undefined, retries: 0 };
    let response: NeutralResponse;
    try {
      response = await answer(request, seen);
    } catch (thrown) {
      return failedAnswer(thrown, rejectErrors, logError, request, (failed, error) =>
        finish(request, seen, started, failed, error),
      );
    }
    finish(request, seen, started, response, undefined);
    return withNosniff(response);
  };
}
