import {
  type AggregateQuery,
  type AggregateRow,
  type AttributeSchema,
  type Scalar,
  scaledOf,
  sumValue,
} from '@resourcery/core/store';
import { type RawBuilder, sql } from 'kysely';
import type { CollectionPlan, Db } from '../store/collection-plan.js';

/** SQLite sums an integer column in two halves (below and above 10^9), each exact in 64 bits. */
const SPLIT = 1_000_000_000;

/**
 * The statistics of a table, in one `SELECT … GROUP BY … ORDER BY … LIMIT`: the conditions are
 * those of a list (the same SQL), the groups ordered as a list orders (nulls first, strings by
 * code point: the columns' collations). Sums are exact: PostgreSQL's and MySQL's `SUM` of a
 * `NUMERIC`/`DECIMAL`/`BIGINT` is an exact decimal, read as text; SQLite keeps decimals as scaled
 * integers, and its `SUM` of integers fails past 2^63, so it sums the quotient and the remainder
 * by 10^9 apart (each far from overflowing) and the halves are added as bigints here.
 *
 * @example
 * ```ts
 * await aggregateRows(plan, db, { where: [], group: ['status'], sum: ['estimate'], min: [], max: [], limit: 1001 });
 * ```
 */
export async function aggregateRows(plan: CollectionPlan, db: Db, query: AggregateQuery): Promise<AggregateRow[]> {
  const sqlite = plan.dialect.name === 'sqlite';
  const text = plan.dialect.name === 'postgres' ? sql`text` : sql`char`;
  const attributes = new Map(plan.schema.attributes.map((attribute) => [attribute.name, attribute]));
  const column = (field: string) => sql.ref(plan.column(field));
  const selections: RawBuilder<unknown>[] = [];
  // Aliases start with `#`, which no attribute name holds: an alias named like a column would
  // take its place in GROUP BY and ORDER BY (`count(*) as "n"` ordering by the count).
  const as = (expression: RawBuilder<unknown>, alias: string): void => {
    selections.push(sql`${expression} as ${sql.ref(`#${alias}`)}`);
  };
  for (const [i, field] of query.group.entries()) as(sql`${column(field)}`, `g${i}`);
  as(sql`count(*)`, 'n');
  query.sum.forEach((field, i) => {
    if (sqlite) {
      as(sql`cast(sum(${column(field)} / ${sql.lit(SPLIT)}) as text)`, `s${i}h`);
      as(sql`cast(sum(${column(field)} % ${sql.lit(SPLIT)}) as text)`, `s${i}l`);
    } else as(sql`cast(sum(${column(field)}) as ${text})`, `s${i}`);
  });
  for (const [i, field] of query.min.entries()) as(sql`min(${column(field)})`, `m${i}`);
  for (const [i, field] of query.max.entries()) as(sql`max(${column(field)})`, `x${i}`);

  let select = plan.filtered(db.selectFrom(plan.table), query.where).select(selections.map((s) => s as never));
  if (query.group.length > 0) {
    select = select.groupBy(query.group.map((field) => plan.column(field)));
    select = plan.ordered(
      select,
      query.group.map((field) => ({ field, direction: 'asc' as const })),
    );
    select = select.limit(query.limit);
  }
  const rows = (await select.execute()) as Record<string, unknown>[];
  const sumOf = (row: Record<string, unknown>, i: number, attribute: AttributeSchema): Scalar => {
    if (sqlite) {
      const high = row[`#s${i}h`];
      if (high === null || high === undefined) return null;
      const scaled = BigInt(String(high)) * BigInt(SPLIT) + BigInt(String(row[`#s${i}l`]));
      return sumValue(scaled, attribute);
    }
    const value = row[`#s${i}`];
    if (value === null || value === undefined) return null;
    return sumValue(scaledOf(String(value), attribute.scale ?? 0), attribute);
  };
  return rows.map((row) => ({
    group: query.group.map((field, i) => plan.codec.read(field, row[`#g${i}`]) as Scalar),
    count: Number(row['#n']),
    sum: query.sum.map((field, i) => sumOf(row, i, attributes.get(field) as AttributeSchema)),
    min: query.min.map((field, i) => plan.codec.read(field, row[`#m${i}`]) as Scalar),
    max: query.max.map((field, i) => plan.codec.read(field, row[`#x${i}`]) as Scalar),
  }));
}
