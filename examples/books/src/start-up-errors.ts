import { StoreUnavailable } from '@resourcery/core/store';
import { redactUrl } from '@resourcery/sql';

/** Says what stops the server from starting in one line on stderr, and exits 1: no stack trace. */
export function exitWith(message: string): never {
  console.error(message);
  process.exit(1);
}

/** What a listen error means for the person starting the server, and what to do. */
export function listenFailure(error: NodeJS.ErrnoException, port: number): string {
  if (error.code === 'EADDRINUSE') {
    return `Port ${port} is taken by another program: stop it, or pick another port, e.g. PORT=${port + 1} npm start`;
  }
  if (error.code === 'EACCES') {
    return `Port ${port} needs privileges this process lacks: pick a port above 1023, e.g. PORT=3000 npm start`;
  }
  return `Cannot listen on port ${port}: ${oneLine(error.message)}`;
}

/** Where a database URL points: `host:port` for a server, the file for SQLite. */
export function databaseHost(url: string): string {
  if (/^sqlite:/i.test(url)) return url.replace(/^sqlite:(\/\/)?/i, '');
  try {
    return new URL(url).host || redactUrl(url);
  } catch {
    return redactUrl(url);
  }
}

/**
 * Why the store could not be prepared before listening, in one line: the database cannot be
 * reached, or it can but cannot serve the books (a table that does not fit the declaration).
 */
export function storeFailure(error: unknown, url: string): string {
  if (error instanceof StoreUnavailable) {
    return `Cannot reach the database at ${databaseHost(url)} (${reasonOf(error)}): check DATABASE_URL, or unset it to use a SQLite file`;
  }
  return `The database at ${redactUrl(url)} cannot serve the books: ${reasonOf(error)}`;
}

const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'unknown host',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** The innermost cause of a failed connection, in a few words. */
export function reasonOf(error: unknown): string {
  let inner = error;
  for (let depth = 0; depth < 10; depth++) {
    const next = inner instanceof AggregateError ? inner.errors[0] : (inner as { cause?: unknown } | undefined)?.cause;
    if (next === undefined || next === null) break;
    inner = next;
  }
  const code = (inner as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && REASONS[code]) return REASONS[code];
  return oneLine(inner instanceof Error ? inner.message || inner.name : String(inner));
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
