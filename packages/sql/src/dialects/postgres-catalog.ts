import { type Kysely, sql } from 'kysely';
import type { CatalogIndex, CatalogKeys } from './dialect.js';

type IndexDraft = {
  -readonly [K in keyof CatalogIndex]: K extends 'columns' ? CatalogIndex[K][number][] : CatalogIndex[K];
};

/** `pg_constraint.confdeltype`. */
const RULES: Readonly<Record<string, string>> = {
  a: 'no action',
  r: 'restrict',
  c: 'cascade',
  n: 'set null',
  d: 'set default',
};

/**
 * The indexes, foreign keys and CHECKs of a PostgreSQL table of the current schema, from
 * `pg_index` (key columns in order, `DESC` from `indoption`) and `pg_constraint`.
 *
 * @example
 * ```ts
 * const { indexes, foreignKeys, checks } = await describePostgresKeys(db, 'books');
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
export async function describePostgresKeys(db: Kysely<any>, table: string): Promise<CatalogKeys> {
  const { rows } = await sql<{
    name: string;
    unique: boolean;
    partial: boolean;
    column: string | null;
    descending: boolean;
  }>`
    select i.relname as name, x.indisunique as "unique", x.indpred is not null as partial, a.attname as "column",
      (x.indoption[k.ord - 1] & 1) = 1 as descending
    from pg_index x
    join pg_class t on t.oid = x.indrelid
    join pg_namespace n on n.oid = t.relnamespace
    join pg_class i on i.oid = x.indexrelid
    cross join lateral unnest(x.indkey::int2[]) with ordinality as k(attnum, ord)
    left join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum and k.attnum > 0
    where n.nspname = current_schema() and t.relname = ${table} and not x.indisprimary and k.ord <= x.indnkeyatts
    order by i.relname, k.ord`.execute(db);
  const byName = new Map<string, IndexDraft>();
  for (const row of rows) {
    const index = byName.get(row.name) ?? { name: row.name, columns: [], unique: row.unique, partial: row.partial };
    byName.set(row.name, index);
    index.columns.push({ column: row.column ?? '', descending: row.descending });
    index.partial ||= row.column === null; // an expression
  }
  const { rows: keys } = await sql<{ name: string; column: string; table: string; references: string; rule: string }>`
    select c.conname as name, a.attname as "column", ft.relname as "table", fa.attname as "references",
      c.confdeltype as rule
    from pg_constraint c
    join pg_class t on t.oid = c.conrelid
    join pg_namespace n on n.oid = t.relnamespace
    join pg_class ft on ft.oid = c.confrelid
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    join pg_attribute fa on fa.attrelid = c.confrelid and fa.attnum = c.confkey[1]
    where c.contype = 'f' and n.nspname = current_schema() and t.relname = ${table}
      and cardinality(c.conkey) = 1
    order by c.conname`.execute(db);
  const { rows: checks } = await sql<{ name: string; clause: string }>`
    select c.conname as name, pg_get_constraintdef(c.oid) as clause
    from pg_constraint c
    join pg_class t on t.oid = c.conrelid
    join pg_namespace n on n.oid = t.relnamespace
    where c.contype = 'c' and n.nspname = current_schema() and t.relname = ${table}
    order by c.conname`.execute(db);
  return {
    indexes: [...byName.values()],
    foreignKeys: keys.map((key) => ({ ...key, onDelete: RULES[key.rule] ?? key.rule })),
    checks,
  };
}
