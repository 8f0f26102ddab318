import { type Kysely, sql } from 'kysely';
import type { CatalogCheck, CatalogForeignKey, CatalogIndex, CatalogKeys } from './dialect.js';

const RULES: Readonly<Record<string, string>> = { 'NO ACTION': 'no action', RESTRICT: 'restrict', CASCADE: 'cascade' };

/**
 * The indexes, foreign keys and CHECKs of a SQLite table, from `pragma_index_list`,
 * `pragma_index_xinfo` and `pragma_foreign_key_list` (SQLite keeps no name for a foreign key: it is
 * named by its column), and the CHECKs from the table's SQL in `sqlite_master`.
 *
 * @example
 * ```ts
 * const { indexes, foreignKeys, checks } = await describeSqliteKeys(db, 'books');
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
  const { rows: tables } = await sql<{ sql: string | null }>`
    select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  return { indexes, foreignKeys, checks: checksIn(tables[0]?.sql ?? '') };
}

/** The end of a quoted run that starts at `at` (a doubled quote stays inside). */
function afterQuoted(text: string, at: number): number {
  const quote = text[at];
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] !== quote) continue;
    if (text[i + 1] === quote) i++;
    else return i + 1;
  }
  return text.length;
}

/**
 * The CHECKs of a `CREATE TABLE` statement as SQLite keeps it (its catalog has no other record of
 * them): each `[CONSTRAINT name] CHECK (…)`, its expression read to the matching parenthesis.
 */
function checksIn(text: string): CatalogCheck[] {
  const checks: CatalogCheck[] = [];
  const pattern = /(?:\bCONSTRAINT\s+("(?:[^"]|"")+"|`(?:[^`]|``)+`|\[[^\]]+\]|\w+)\s+)?\bCHECK\s*\(/gi;
  for (const match of text.matchAll(pattern)) {
    const start = match.index + match[0].length;
    let depth = 1;
    let i = start;
    while (i < text.length && depth > 0) {
      const character = text[i] as string;
      if (`'"\``.includes(character)) i = afterQuoted(text, i);
      else {
        if (character === '(') depth++;
        else if (character === ')') depth--;
        i++;
      }
    }
    const quoted = match[1] ?? '';
    const name = /^["`[]/.test(quoted)
      ? quoted.slice(1, -1).replaceAll(`${quoted[0]}${quoted[0]}`, quoted[0] as string)
      : quoted;
    checks.push({ name, clause: text.slice(start, i - 1) });
  }
  return checks;
}
