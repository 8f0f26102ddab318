import { HttpError } from '../errors/http-error.js';
import type { ErrorLogger } from '../http/problem.js';

/** One level of a {@link Logger}: pino's signature, `(fields, message)`. */
export type LogMethod = (fields: object, message?: string) => void;

/**
 * A structured logger, as `createApi({ logger })` takes it: pino, or anything with its
 * `info`, `warn` and `error` signature.
 *
 * @example
 * ```ts
 * import pino from 'pino';
 * const api = createApi({ resources: [books], store: memoryStore(), logger: pino() });
 * ```
 */
export interface Logger {
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
}

/** The fields of the one line logged per request. */
export interface RequestLine {
  requestId: string;
  method: string;
  path: string;
  resource?: string;
  action?: string;
  status: number;
  durationMs: number;
  /** The id of the request's OpenTelemetry trace, when it is traced: its line leads to its spans. */
  traceId?: string;
  /** How many times the store ran a transaction or a write again after a conflict, when it did. */
  retries?: number;
}

/**
 * Logs one request: `error` (with the error as `err`, stack included) for a server fault
 * (500, 503), `warn` for any other 4xx or 5xx, `info` for the rest. A client-caused error with a
 * cause (a constraint violation, an aborted body) is named in one line, never with its stack.
 *
 * @example
 * ```ts
 * logRequest(pino(), { requestId: 'abc', method: 'GET', path: '/books', status: 200, durationMs: 3 });
 * ```
 */
export function logRequest(logger: Logger, line: RequestLine, error?: unknown): void {
  const { status } = line;
  if (status >= 500 && error !== undefined) {
    logger.error({ ...line, err: error }, 'request failed');
  } else if (status >= 400) {
    const fields: Record<string, unknown> = { ...line };
    if (error instanceof Error && error.cause !== undefined) fields.cause = causeLine(error);
    logger.warn(fields, 'request refused');
  } else {
    logger.info(line, 'request completed');
  }
}

/** `<code>: <name>: <message>` of what a client error was caused by, on one line. */
function causeLine(error: Error): string {
  const code = error instanceof HttpError ? error.code : 'error';
  const cause = error.cause;
  const text = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  return `${code}: ${text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').slice(0, 300)}`;
}

/** With a `logger`, the per-request line says it all: `logError` itself logs nothing more. */
export const logNothing: ErrorLogger = () => {};
