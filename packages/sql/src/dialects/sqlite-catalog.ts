import { type Kysely, sql } from 'kysely';
import type { CatalogForeignKey, CatalogIndex, CatalogKeys } from './dialect.js';

const RULES: Readonly<Record<string, string>> = { 'NO ACTION': 'no action', RESTRICT: 'restrict', CASCADE: 'cascade' };

/**
 * The indexes and foreign keys of a SQLite table, from `pragma_index_list`, `pragma_index_xinfo`
 * and `pragma_foreign_key_list` (SQLite keeps no name for a foreign key: it is named by its
 * column).
 *
 * @example
 * ```ts
 * const { indexes, foreignKeys } = await describeSqliteKeys(db, 'books');
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
export async function describeSqliteKeys(db: Kysely<any>, table: string): Promise<CatalogKeys> {
  const { rows: list } = await sql<{ name: string; unique: number; origin: string; partial: number }>`
    select name, "unique", origin, partial from pragma_index_list(${table})`.execute(db);
  const indexes: CatalogIndex[] = [];
  for (const index of list) {
    if (index.origin === 'pk') continue;
    const { rows } = await sql<{ name: string | null; desc: number }>`
      select name, "desc" from pragma_index_xinfo(${index.name}) where key = 1 order by seqno`.execute(db);
    indexes.push({
      name: index.name,
      columns: rows.map((row) => ({ column: row.name ?? '', descending: row.desc === 1 })),
      unique: index.unique === 1,
      partial: index.partial === 1 || rows.some((row) => row.name === null),
    });
  }
  const { rows: keys } = await sql<{ id: number; table: string; from: string; to: string | null; on_delete: string }>`
    select id, "table", "from", "to", on_delete from pragma_foreign_key_list(${table}) order by id, seq`.execute(db);
  const foreignKeys = keys
    // A key of several columns is none of the store's.
    .filter((key) => keys.filter((other) => other.id === key.id).length === 1)
    .map(
      (key): CatalogForeignKey => ({
        name: key.from,
        column: key.from,
        table: key.table,
        references: key.to ?? 'id', // no column: the primary key
        onDelete: RULES[key.on_delete] ?? key.on_delete.toLowerCase(),
      }),
    );
  return { indexes, foreignKeys };
}
