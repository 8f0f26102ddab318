import type { SqlStoreProvider } from '@resourcery/sql';
import { sql } from 'kysely';

/**
 * Everything the database's own catalog says about the tables of a prefix, as lines of text with
 * the prefix taken out, so that two sets of tables made by different routes compare equal when
 * they are the same: columns, indexes and constraints. Read with the database's own tools, not the
 * store's (SQLite: `sqlite_master` and pragmas; PostgreSQL: `information_schema` and `pg_catalog`;
 * MariaDB: `SHOW CREATE TABLE`). Kysely's migration tables are left out.
 */
export async function catalogDump(store: SqlStoreProvider, tablePrefix: string): Promise<string[]> {
  const { db } = store;
  const strip = (text: unknown) => (tablePrefix ? String(text).replaceAll(tablePrefix, '') : String(text));
  const own = (table: string) => table.startsWith(tablePrefix) && !/kysely_migration|^sqlite_/.test(strip(table));
  const lines: string[] = [];
  if (store.dialect === 'sqlite') {
    const { rows } = await sql<{ type: string; name: string; tbl_name: string; sql: string | null }>`
      select type, name, tbl_name, sql from sqlite_master order by type, name`.execute(db);
    for (const row of rows.filter((entry) => own(entry.tbl_name))) {
      lines.push(strip(`${row.type} ${row.name} on ${row.tbl_name}: ${row.sql}`));
      if (row.type !== 'table') continue;
      for (const pragma of ['pragma_table_info', 'pragma_foreign_key_list', 'pragma_index_list']) {
        const { rows: details } = await sql`select * from ${sql.raw(pragma)}(${row.name})`.execute(db);
        for (const detail of details) lines.push(strip(`${pragma} ${row.name}: ${JSON.stringify(detail)}`));
      }
    }
    return lines;
  }
  if (store.dialect === 'postgres') {
    const { rows: columns } = await sql<Record<string, unknown>>`
      select table_name, column_name, data_type, is_nullable, column_default, character_maximum_length,
        numeric_precision, numeric_scale, collation_name, is_identity, identity_generation
      from information_schema.columns where table_schema = current_schema()
      order by table_name, ordinal_position`.execute(db);
    const { rows: indexes } = await sql<{ tablename: string; indexname: string; indexdef: string }>`
      select tablename, indexname, indexdef from pg_indexes where schemaname = current_schema()
      order by tablename, indexname`.execute(db);
    const { rows: constraints } = await sql<{ table: string; name: string; definition: string }>`
      select t.relname as "table", c.conname as name, pg_get_constraintdef(c.oid) as definition
      from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = current_schema() order by t.relname, c.conname`.execute(db);
    for (const row of columns.filter((entry) => own(String(entry.table_name)))) lines.push(strip(JSON.stringify(row)));
    for (const row of indexes.filter((entry) => own(entry.tablename))) lines.push(strip(row.indexdef));
    for (const row of constraints.filter((entry) => own(entry.table))) {
      lines.push(strip(`constraint ${row.name} on ${row.table}: ${row.definition}`));
    }
    return lines;
  }
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables where table_schema = database()
    order by table_name`.execute(db);
  for (const { name } of tables.filter((entry) => own(entry.name))) {
    const { rows } = await sql<Record<string, string>>`show create table ${sql.id(name)}`.execute(db);
    lines.push(strip(rows[0]?.['Create Table']));
  }
  return lines;
}
