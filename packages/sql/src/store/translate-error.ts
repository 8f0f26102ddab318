import { type CollectionSchema, ConstraintViolation, StoreError, StoreUnavailable } from '@resourcery/core/store';
import { StoreCatalog } from '../ddl/catalog.js';
import type { ConstraintFailure, DriverError, SqlDialectSpec } from '../dialects/dialect.js';
import { DIALECTS } from '../dialects/index.js';

/** What a store knows when a statement fails, beyond the collection's schema. */
export interface ErrorContext {
  /** The store's collections and the names of their constraints. */
  readonly catalog?: StoreCatalog;
  /** Whether the statement was a destroy: a foreign key error is then on the parent's side. */
  readonly destroying?: boolean;
}

/** Socket-level failures, whatever the driver: the server is down, restarting, unreachable or dropped the connection. */
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

function isUnavailable(error: unknown, dialects: readonly SqlDialectSpec[], depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const driverError = error as DriverError;
  const { code, cause, errors } = driverError;
  if (typeof code === 'string' && NODE_CODES.has(code)) return true;
  if (dialects.some((dialect) => dialect.isUnavailable(driverError))) return true;
  // Node reports a refused connection to every address of a host name as an AggregateError.
  if (Array.isArray(errors) && errors.some((inner) => isUnavailable(inner, dialects, depth + 1))) return true;
  return isUnavailable(cause, dialects, depth + 1);
}

/**
 * SQLSTATEs by which the database aborts a transaction to settle a conflict with another, the
 * SQL standard's whatever the driver (pg's `code`, mysql2's `sqlState`): a serialization failure
 * (`40001`, also MySQL's and MariaDB's deadlocks, 1213) and PostgreSQL's deadlock (`40P01`).
 * Running the transaction again may succeed. A lock wait timeout (PostgreSQL `55P03`, MySQL
 * 1205) is not one: it already waited `lockTimeoutMs`, and would wait as long again.
 */
const CONFLICTS = new Set(['40001', '40P01']);

/**
 * The SQLSTATE of the conflict that `error` (a driver's error, or a store or HTTP error caused by
 * one) says aborted its transaction, if any: see {@link CONFLICTS}.
 *
 * @example
 * ```ts
 * conflictCode(new StoreUnavailable(pgError)); // '40P01' for a deadlock
 * ```
 */
export function conflictCode(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 4) return undefined;
  const { code, sqlState, cause } = error as DriverError & { sqlState?: unknown };
  for (const state of [sqlState, code]) if (typeof state === 'string' && CONFLICTS.has(state)) return state;
  return conflictCode(cause, depth + 1);
}

/** The attribute named by a driver's message, if it is one of the collection's. */
function fieldIn(schema: CollectionSchema | undefined, candidates: readonly (string | undefined)[]) {
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

/** The field a violation of the collection's own table is reported on. */
function fieldOf(failure: ConstraintFailure, schema: CollectionSchema | undefined, catalog: StoreCatalog | undefined) {
  // A constraint the store made names its field; so do the columns of a unique set (SQLite).
  const named = catalog?.constraint(failure.constraint);
  if (named && named.collection === schema?.name && named.kind === failure.kind) return named.field;
  const { key } = failure;
  if (failure.kind === 'unique' && key && key.length > 1) {
    const set = schema?.unique?.find((fields) => fields.length === key.length && fields.every((f, i) => f === key[i]));
    return set?.[set.length - 1];
  }
  return fieldIn(schema, failure.columns) ?? fieldOfConstraint(schema, failure.constraint);
}

function constraintViolation(
  error: unknown,
  schema: CollectionSchema | undefined,
  dialects: readonly SqlDialectSpec[],
  { catalog, destroying }: ErrorContext,
): ConstraintViolation | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code } = error as DriverError;
  if (typeof code !== 'string') return undefined;
  for (const dialect of dialects) {
    const failure = dialect.constraintFailure(code, error as DriverError);
    if (!failure) continue;
    if (failure.kind === 'referenced' || (failure.kind === 'foreign_key' && destroying)) {
      // The record is still referred to: name the relation when the driver names the key.
      const named = catalog?.constraint(failure.constraint);
      const by = named?.kind === 'foreign_key' ? { collection: named.collection, field: named.field } : undefined;
      return new ConstraintViolation('referenced', undefined, error, by);
    }
    return new ConstraintViolation(failure.kind, fieldOf(failure, schema, catalog), error);
  }
  return undefined;
}

/**
 * {@link translateError} for the errors of the given dialects' drivers only (a store knows its
 * own).
 *
 * @example
 * ```ts
 * try { await query.execute(); } catch (error) { throw translateDriverError(error, schema, [postgres]); }
 * ```
 */
export function translateDriverError(
  error: unknown,
  schema: CollectionSchema | undefined,
  dialects: readonly SqlDialectSpec[],
  context: ErrorContext = {},
): unknown {
  if (error instanceof StoreError) return error;
  if (isUnavailable(error, dialects)) return new StoreUnavailable(error);
  return constraintViolation(error, schema, dialects, context) ?? error;
}

/**
 * Turns a driver error into what the core understands: {@link StoreUnavailable} (503) when the
 * database cannot be reached or is busy, {@link ConstraintViolation} (422 naming the field, or
 * 409) when a write breaks a constraint. Anything else is answered unchanged (a 500 whose cause
 * only the server log shows). The driver's error stays as the `cause`, so SQL text and driver
 * messages reach the log and never a response. Errors of every supported driver are recognized;
 * the constraints `schemaSql` declares (`<table>_<fields>_key`, `<table>_<field>_fkey`) name
 * their field, given the table prefix.
 *
 * @example
 * ```ts
 * try { await query.execute(); } catch (error) { throw translateError(error, schema); }
 * ```
 */
export function translateError(
  error: unknown,
  schema?: CollectionSchema,
  options: { tablePrefix?: string } = {},
): unknown {
  const catalog = schema ? new StoreCatalog(options.tablePrefix ?? '').add(schema) : undefined;
  return translateDriverError(error, schema, DIALECTS, { catalog });
}
