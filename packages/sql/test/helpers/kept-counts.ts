import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
type Db = Kysely<any>;

/**
 * The objects of `table`'s kept count that exist (query/kept-count.ts: its counts table and that
 * table's key, its trigger functions), by name, sorted; `expected` is all of them.
 *
 * @example
 * ```ts
 * expect(await keptCountObjects(db, 'issues')).toEqual(keptCountObjects.expected('issues'));
 * ```
 */
export async function keptCountObjects(db: Db, table: string): Promise<string[]> {
  const prefix = `${table}__`;
  const { rows } = await sql<{
    name: string;
  }>`select relname as name from pg_class where starts_with(relname, ${prefix})
    union all select proname from pg_proc where starts_with(proname, ${prefix}) order by 1`.execute(db);
  return rows.map((row) => row.name);
}

keptCountObjects.expected = (table: string): string[] =>
  ['counts', 'counts_pkey', 'count_delete', 'count_insert', 'count_truncate', 'count_update']
    .map((name) => `${table}__${name}`)
    .sort();
