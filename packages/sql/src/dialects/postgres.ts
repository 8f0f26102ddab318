import type { AttributeSchema, ConstraintKind } from '@resourcery/core/store';
import { PostgresAdapter, PostgresDialect, sql } from 'kysely';
import type { ConnectionOptions, SqlDialectSpec } from './dialect.js';
import { firstGroup, standardSql } from './shared.js';

/**
 * SQLSTATEs that say the server cannot serve right now: connection exceptions (08), shutting
 * down or starting (57P01-57P03), insufficient resources such as too many connections or a full
 * disk (53), authentication (28), a dropped database (3D000), and serialization failures and
 * deadlocks (40001, 40P01), after which the client is told to retry.
 */
const UNAVAILABLE = /^(08...|57P0[123]|53...|28...|3D000|40001|40P01)$/;

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

async function openPostgres(url: string, options: ConnectionOptions) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
  });
  // pg emits 'error' when the server drops a connection, on the pool for idle clients and on the
  // client itself when it is checked out; without listeners either would kill the process. The
  // query in flight fails (503), the broken client leaves the pool, the next query reconnects.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

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
  createKyselyDialect: (url, options) => new PostgresDialect({ pool: () => openPostgres(url, options) }),
  recognizes: (adapter) => adapter instanceof PostgresAdapter,
  serverDialect: async () => postgres,

  ...standardSql,
  idColumnType: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
  columnType,
  columnsQuery: (table) => sql<{ name: string }>`select column_name as name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table}`,

  supportsReturning: true,
  supportsTransactionalDdl: true,
  nullsSortFirst: false, // PostgreSQL puts nulls last ascending
  nativeBooleans: true,

  isUnavailable: ({ code, message }) =>
    (typeof code === 'string' && UNAVAILABLE.test(code)) ||
    (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)),
  constraintFailure(code, { column, detail, constraint }) {
    const kind = KINDS[code];
    if (kind) {
      return {
        kind,
        columns: [typeof column === 'string' ? column : undefined, firstGroup(detail, /^Key \("?([^",)]+)"?\)=/)],
        constraint: typeof constraint === 'string' ? constraint : undefined,
      };
    }
    return DATA_EXCEPTION.test(code) ? { kind: 'check', columns: [] } : undefined;
  },
};
