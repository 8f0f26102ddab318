import { type CollectionSchema, ConstraintViolation, HttpError, StoreUnavailable } from '@resourcery/core';

type Kind = ConstructorParameters<typeof ConstraintViolation>[0];

/** Socket-level failures: the server is down, restarting, unreachable or dropped the connection. */
const NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
]);

/**
 * MySQL/MariaDB errors that say the server cannot serve right now (mysql2 also flags every
 * connection-level failure with `fatal: true`). Deadlocks and lock timeouts are transient too:
 * the client is told to retry (503 with `Retry-After`).
 */
const MYSQL_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR',
  'ER_CON_COUNT_ERROR',
  'ER_TOO_MANY_USER_CONNECTIONS',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_ACCESS_DENIED_ERROR',
  'ER_BAD_DB_ERROR',
  'ER_LOCK_DEADLOCK',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_OPTION_PREVENTS_STATEMENT', // read-only replica after a failover
]);

/** SQLite: locked by another process past the busy timeout, file missing/unwritable, disk full. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY)/;

/**
 * PostgreSQL SQLSTATEs: connection exceptions (08), shutting down or starting (57P01-57P03),
 * insufficient resources such as too many connections or a full disk (53), authentication (28),
 * a dropped database (3D000), and serialization failures and deadlocks (40001, 40P01).
 */
const PG_UNAVAILABLE = /^(08...|57P0[123]|53...|28...|3D000|40001|40P01)$/;

/** pg's own connection failures, which carry no code. */
const PG_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

interface DriverError {
  code?: unknown;
  errno?: unknown;
  fatal?: unknown;
  message?: unknown;
  detail?: unknown;
  column?: unknown;
  constraint?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function isConnectionError(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, fatal, message, cause, errors } = error as DriverError;
  if (typeof code === 'string') {
    if (NODE_CODES.has(code) || MYSQL_CODES.has(code) || SQLITE_UNAVAILABLE.test(code)) return true;
    if (PG_UNAVAILABLE.test(code)) return true;
  }
  if (fatal === true) return true;
  if (typeof message === 'string' && PG_MESSAGES.test(message)) return true;
  // Node reports a refused connection to every address of a host name as an AggregateError.
  if (Array.isArray(errors) && errors.some((inner) => isConnectionError(inner, depth + 1))) return true;
  return isConnectionError(cause, depth + 1);
}

/** The attribute named by a driver's message, if it is one of the collection's. */
function fieldIn(schema: CollectionSchema | undefined, ...candidates: (string | undefined)[]): string | undefined {
  const names = new Set(schema?.attributes.map((attribute) => attribute.name));
  return candidates.find((candidate) => candidate !== undefined && names.has(candidate));
}

/**
 * The one attribute whose name is a `_`-separated part of a constraint or index name
 * (`books_name_unique` names `name`), if exactly one is.
 */
function fieldOfConstraint(schema: CollectionSchema | undefined, constraint: string | undefined): string | undefined {
  if (!schema || constraint === undefined) return undefined;
  const parts = `_${constraint}_`;
  const found = schema.attributes.filter((a) => a.name !== 'id' && parts.includes(`_${a.name}_`)).map((a) => a.name);
  return found.length === 1 ? found[0] : undefined;
}

function match(text: unknown, pattern: RegExp): string | undefined {
  return typeof text === 'string' ? pattern.exec(text)?.[1] : undefined;
}

const PG_KINDS: Record<string, Kind> = {
  '23505': 'unique',
  '23502': 'not_null',
  '23514': 'check',
  '23503': 'foreign_key',
};
const MYSQL_KINDS: Record<string, Kind> = {
  ER_DUP_ENTRY: 'unique',
  ER_BAD_NULL_ERROR: 'not_null',
  ER_NO_DEFAULT_FOR_FIELD: 'not_null',
  ER_DATA_TOO_LONG: 'check',
  ER_TRUNCATED_WRONG_VALUE_FOR_FIELD: 'check',
  ER_WARN_DATA_OUT_OF_RANGE: 'check',
  ER_CHECK_CONSTRAINT_VIOLATED: 'check',
  ER_ROW_IS_REFERENCED_2: 'foreign_key',
  ER_NO_REFERENCED_ROW_2: 'foreign_key',
};
const SQLITE_KINDS: Record<string, Kind> = {
  SQLITE_CONSTRAINT_UNIQUE: 'unique',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
  SQLITE_CONSTRAINT_NOTNULL: 'not_null',
  SQLITE_CONSTRAINT_CHECK: 'check',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign_key',
  SQLITE_TOOBIG: 'check',
};

function constraintViolation(error: unknown, schema: CollectionSchema | undefined): ConstraintViolation | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message, detail, column, constraint } = error as DriverError;
  if (typeof code !== 'string') return undefined;
  const pgKind = PG_KINDS[code];
  if (pgKind) {
    const field =
      fieldIn(schema, typeof column === 'string' ? column : undefined, match(detail, /^Key \("?([^",)]+)"?\)=/)) ??
      fieldOfConstraint(schema, typeof constraint === 'string' ? constraint : undefined);
    return new ConstraintViolation(pgKind, field, error);
  }
  // Data exceptions (value too long, a NUL character in text...) and index rows over the limit.
  if (/^(22...|54000)$/.test(code)) return new ConstraintViolation('check', undefined, error);
  const mysqlKind = MYSQL_KINDS[code];
  if (mysqlKind) {
    const key = match(message, /for key '(?:[^'.]+\.)?([^']+)'/);
    const field =
      fieldIn(schema, match(message, /(?:Column|Field|column) '([^']+)'/), key) ?? fieldOfConstraint(schema, key);
    return new ConstraintViolation(mysqlKind, field, error);
  }
  const sqliteKind = SQLITE_KINDS[code] ?? (code.startsWith('SQLITE_CONSTRAINT') ? 'other' : undefined);
  if (sqliteKind) {
    const fields = match(message, /constraint failed: (.+)$/)?.split(', ') ?? [];
    const field = fields.length === 1 ? fieldIn(schema, fields[0]?.replace(/^.*\./, '')) : undefined;
    return new ConstraintViolation(sqliteKind, field, error);
  }
  return undefined;
}

/**
 * Turns a driver error into what the core understands: {@link StoreUnavailable} (503) when the
 * database cannot be reached or is busy, {@link ConstraintViolation} (422 naming the field, or
 * 409) when a write breaks a constraint. Anything else is answered unchanged (a 500 whose cause
 * only the server log shows). The driver's error stays as the `cause`, so SQL text and driver
 * messages reach the log and never a response.
 *
 * @example
 * ```ts
 * try { await query.execute(); } catch (error) { throw translateError(error, schema); }
 * ```
 */
export function translateError(error: unknown, schema?: CollectionSchema): unknown {
  if (error instanceof StoreUnavailable || error instanceof HttpError) return error;
  if (isConnectionError(error)) return new StoreUnavailable(error);
  return constraintViolation(error, schema) ?? error;
}
