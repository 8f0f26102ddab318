import type { CollectionSchema } from '@resourcery/core/store';
import { type Kysely, sql } from 'kysely';
import { ensureTable } from '../ddl/table-setup.js';
import type { SqlDialectSpec } from '../dialects/dialect.js';

// biome-ignore lint/suspicious/noExplicitAny: the library's own tables, known at run time
type Db = Kysely<any>;

/**
 * The change log's table (`<tablePrefix>resourcery_changes`), made by `init` when some schema is
 * live: one row per committed change. `id` is the change's position (`seq`), `committedAt` the
 * time of its commit (milliseconds since the epoch, the writing process's clock), `before` and
 * `after` the record as JSON text (`null` for a create's before and a destroy's after).
 */
export const CHANGES_SCHEMA: CollectionSchema = {
  name: 'resourcery_changes',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'committedAt', type: 'integer', nullable: false },
    { name: 'collection', type: 'string', nullable: false, maxLength: 200 },
    { name: 'kind', type: 'string', nullable: false, maxLength: 10 },
    { name: 'recordId', type: 'string', nullable: false, maxLength: 100 },
    { name: 'before', type: 'string', nullable: true },
    { name: 'after', type: 'string', nullable: true },
  ],
  // Pruning finds the old rows by their time; reads go by `id`, the primary key.
  indexed: ['committedAt'],
};

/**
 * The change log's one-row table of state (`<tablePrefix>resourcery_changes_state`, row `id` 1):
 * `prunedThrough`, the highest position pruned (a reader behind it must start over), and
 * `head`, the last position given, which MySQL and MariaDB lock (`FOR UPDATE`) to number each
 * transaction's changes in commit order.
 */
export const CHANGE_STATE_SCHEMA: CollectionSchema = {
  name: 'resourcery_changes_state',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'head', type: 'integer', nullable: false },
    { name: 'prunedThrough', type: 'integer', nullable: false },
  ],
  indexed: [],
};

/**
 * The schemas, followed by the change log's two tables when one of them is live (what `init`
 * and `migrationsFor` create).
 *
 * @example
 * ```ts
 * withChangeTables([issues]).map((schema) => schema.name); // ['issues', 'resourcery_changes', 'resourcery_changes_state'] when issues is live
 * ```
 */
export function withChangeTables(schemas: readonly CollectionSchema[]): CollectionSchema[] {
  return schemas.some((schema) => schema.live) ? [...schemas, CHANGES_SCHEMA, CHANGE_STATE_SCHEMA] : [...schemas];
}

/**
 * Makes sure the change log's tables exist (created when `create` allows it, checked otherwise)
 * and that the state row is there (inserted once, whoever comes first).
 *
 * @example
 * ```ts
 * await ensureChangeTables(db, postgres, { tablePrefix: '', create: true });
 * ```
 */
export async function ensureChangeTables(
  db: Db,
  dialect: SqlDialectSpec,
  options: { tablePrefix: string; create: boolean },
): Promise<void> {
  await ensureTable(db, CHANGES_SCHEMA, dialect, options);
  await ensureTable(db, CHANGE_STATE_SCHEMA, dialect, options);
  const table = sql.table(`${options.tablePrefix}${CHANGE_STATE_SCHEMA.name}`);
  const columns = sql`(${sql.ref('id')}, ${sql.ref('head')}, ${sql.ref('prunedThrough')})`;
  // An identity column of PostgreSQL takes a given value only when told to.
  const insert =
    dialect.name === 'postgres'
      ? sql`insert into ${table} ${columns} overriding system value values (1, 0, 0) on conflict do nothing`
      : dialect.name === 'sqlite'
        ? sql`insert into ${table} ${columns} values (1, 0, 0) on conflict do nothing`
        : sql`insert ignore into ${table} ${columns} values (1, 0, 0)`;
  await insert.execute(db);
}
