import { type Kysely, sql } from 'kysely';
import type { CatalogIndex, CatalogKeys } from './dialect.js';

type IndexDraft = {
  -readonly [K in keyof CatalogIndex]: K extends 'columns' ? CatalogIndex[K][number][] : CatalogIndex[K];
};

/**
 * The indexes, foreign keys and CHECKs of a MySQL or MariaDB table of the current database, from
 * `information_schema` (`statistics`: key columns in order, `D` for descending, a length for a
 * prefix; `key_column_usage` and `referential_constraints`; `check_constraints`).
 *
 * @example
 * ```ts
 * const { indexes, foreignKeys, checks } = await describeMysqlKeys(db, 'books');
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
export async function describeMysqlKeys(db: Kysely<any>, table: string): Promise<CatalogKeys> {
  const { rows } = await sql<{
    name: string;
    non_unique: number | string;
    column: string | null;
    collation: string | null;
    sub_part: number | null;
  }>`
    select index_name as name, non_unique, column_name as \`column\`, collation, sub_part
    from information_schema.statistics
    where table_schema = database() and table_name = ${table} and index_name <> 'PRIMARY'
    order by index_name, seq_in_index`.execute(db);
  const byName = new Map<string, IndexDraft>();
  for (const row of rows) {
    const index = byName.get(row.name) ?? {
      name: row.name,
      columns: [],
      unique: Number(row.non_unique) === 0,
      partial: false,
    };
    byName.set(row.name, index);
    index.columns.push({ column: row.column ?? '', descending: row.collation === 'D', prefix: row.sub_part !== null });
    index.partial ||= row.column === null; // an expression
  }
  const { rows: keys } = await sql<{ name: string; column: string; table: string; references: string; rule: string }>`
    select k.constraint_name as name, k.column_name as \`column\`, k.referenced_table_name as \`table\`,
      k.referenced_column_name as \`references\`, r.delete_rule as rule
    from information_schema.key_column_usage k
    join information_schema.referential_constraints r
      on r.constraint_schema = k.constraint_schema and r.constraint_name = k.constraint_name and r.table_name = k.table_name
    where k.table_schema = database() and k.table_name = ${table} and k.referenced_table_name is not null
    order by k.constraint_name, k.ordinal_position`.execute(db);
  const single = keys.filter((key) => keys.filter((other) => other.name === key.name).length === 1);
  // MySQL names CHECKs uniquely per database; MariaDB per table, and says which (`TABLE_NAME`).
  const { rows: checks } = await sql<{ CONSTRAINT_NAME: string; CHECK_CLAUSE: string; TABLE_NAME?: string }>`
    select c.* from information_schema.check_constraints c
    join information_schema.table_constraints t
      on t.constraint_schema = c.constraint_schema and t.constraint_name = c.constraint_name
    where t.table_schema = database() and t.table_name = ${table} and t.constraint_type = 'CHECK'
    order by c.constraint_name`.execute(db);
  return {
    indexes: [...byName.values()],
    foreignKeys: single.map(({ rule, ...key }) => ({ ...key, onDelete: rule.toLowerCase() })),
    checks: checks
      .filter((check) => check.TABLE_NAME === undefined || check.TABLE_NAME === table)
      .map((check) => ({ name: check.CONSTRAINT_NAME, clause: check.CHECK_CLAUSE })),
  };
}
