import { HttpError } from '../errors/http-error.js';
import type { ErrorLogger } from '../http/problem.js';

/**
 * The default `logError` of `createApi`: a server fault (500, 503) goes to `console.error` with
 * its stack; a client error that has a cause (a constraint the database enforced, a body the
 * client stopped sending) is one line, so that a client cannot flood the log with stack traces.
 */
export const logToConsole: ErrorLogger = (error, { method, path, status }) => {
  if (status >= 500) console.error(`[resourcery] ${method} ${path} failed:`, error);
  else console.error(`[resourcery] ${method} ${clip(path)}: ${status} ${oneLine(error)}`);
};

/** `<code>, caused by <name>: <message>`, on one line of at most a few hundred characters. */
function oneLine(error: unknown): string {
  const code = error instanceof HttpError ? error.code : 'error';
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  const text = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  // A driver's message may repeat what the client sent: no line breaks, no control characters.
  const flat = text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();
  return `${code}, caused by ${clip(flat)}`;
}

function clip(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
