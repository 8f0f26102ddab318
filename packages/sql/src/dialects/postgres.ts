import { type AttributeSchema, type ConstraintKind, MAX_PRECISION } from '@resourcery/core/store';
import { PostgresAdapter } from 'kysely';
import { postgresDialect } from '../execute/postgres-connection.js';
import type { SqlDialectSpec } from './dialect.js';
import { describePostgresKeys } from './postgres-catalog.js';
import { explainRows } from './row-estimates.js';
import { firstGroup, informationSchemaColumns, likeContains, standardSql } from './shared.js';

/**
 * SQLSTATEs that say the server cannot serve right now: connection exceptions (08), shutting
 * down or starting (57P01-57P03), insufficient resources such as too many connections or a full
 * disk (53), authentication (28), a dropped database (3D000), serialization failures and
 * deadlocks (40001, 40P01), and a lock not obtained within `lock_timeout` (55P03), after which
 * the client is told to retry.
 */
const UNAVAILABLE = /^(08...|57P0[123]|53...|28...|3D000|40001|40P01|55P03)$/;

/** pg's own connection failures, which carry no code. */
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

const KINDS: Record<string, ConstraintKind> = {
  '23505': 'unique',
  '23502': 'not_null',
  '23514': 'check',
  '23503': 'foreign_key',
};

/** Data exceptions (value too long, a NUL character in text...) and index rows over the limit. */
const DATA_EXCEPTION = /^(22...|54000)$/;

function columnType(attribute: AttributeSchema): string {
  switch (attribute.type) {
    case 'string': {
      // The "C" collation compares bytes: code point order, case-sensitive.
      const { maxLength } = attribute;
      return `${maxLength === undefined ? 'TEXT' : `VARCHAR(${Math.max(1, Math.floor(maxLength))})`} COLLATE "C"`;
    }
    case 'integer':
      return 'BIGINT';
    case 'number':
      return 'DOUBLE PRECISION';
    case 'boolean':
      return 'BOOLEAN';
    case 'date-time':
      return 'TIMESTAMPTZ(3)'; // milliseconds, as every store keeps them
    case 'date':
      return 'DATE';
    case 'decimal':
      return `NUMERIC(${attribute.precision ?? MAX_PRECISION}, ${attribute.scale ?? 0})`;
    case 'uuid':
      return 'UUID'; // sorts in byte order: the order of the lowercase text
    case 'json':
      return 'JSON'; // keeps the text as written (jsonb would reorder keys)
  }
}

/**
 * PostgreSQL through pg: a pool of connections that survives the server going away.
 *
 * @example
 * ```ts
 * postgres.columnType({ name: 'name', type: 'string', nullable: false }); // 'TEXT COLLATE "C"'
 * ```
 */
export const postgres: SqlDialectSpec = {
  name: 'postgres',
  createKyselyDialect: postgresDialect,
  recognizes: (adapter) => adapter instanceof PostgresAdapter,
  serverDialect: async () => postgres,

  ...standardSql,
  idColumnType: (type) => (type === 'uuid' ? 'UUID PRIMARY KEY' : 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY'),
  columnType,
  columnCheck: () => undefined,
  defaultClause: (_, literal) => `DEFAULT ${literal}`,
  typeFamilies: {
    integer: /^(bigint|integer|smallint)$/,
    number: /^(double precision|real|numeric)$/,
    string: /^(text|character varying|character)$/,
    boolean: /^boolean$/,
    'date-time': /^timestamp with time zone$/,
    date: /^date$/,
    decimal: /^numeric$/,
    uuid: /^uuid$/,
    json: /^(json|jsonb|text)$/,
  },
  describeColumns: (db, table) => informationSchemaColumns(db, table, 'current_schema()'),
  describeKeys: describePostgresKeys,
  prepareConnection: async () => {},

  supportsReturning: true,
  insertReturning: true,
  maxParameters: 65535,
  supportsTransactionalDdl: true,
  lateralJoins: true,
  nullsSortFirst: false, // PostgreSQL puts nulls last ascending
  nativeBooleans: true,
  dateTimeParameter: (canonical) => canonical, // timestamptz reads the zone
  localDriverDates: true,
  scaledDecimals: false,
  contains: likeContains,
  estimateRows: explainRows,

  isUnavailable: ({ code, message }) =>
    (typeof code === 'string' && UNAVAILABLE.test(code)) ||
    (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)),
  constraintFailure(code, { column, detail, constraint, message }) {
    const kind = KINDS[code];
    if (kind) {
      return {
        // 23503 on the parent's side: "update or delete on table … violates foreign key constraint".
        kind: kind === 'foreign_key' && /^update or delete/.test(String(message)) ? 'referenced' : kind,
        columns: [typeof column === 'string' ? column : undefined, firstGroup(detail, /^Key \("?([^",)]+)"?\)=/)],
        constraint: typeof constraint === 'string' ? constraint : undefined,
      };
    }
    return DATA_EXCEPTION.test(code) ? { kind: 'check', columns: [] } : undefined;
  },
};
