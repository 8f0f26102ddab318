import type { CompiledQuery, Kysely } from 'kysely';
import { execute } from '../execute/execute.js';

/** What a dialect may add to answer `count=estimated` past its threshold (see {@link explainRows}). */
export interface RowEstimates {
  /**
   * The planner's estimate of how many rows `statement` (a filtered select) answers, without
   * running it. Absent in a dialect whose counts are always exact (SQLite, MySQL, MariaDB).
   */
  estimateRows?(db: Kysely<unknown>, statement: CompiledQuery): Promise<number>;
}

/** The top node of an `EXPLAIN (FORMAT JSON)`, as far as it is read. */
interface ExplainedPlan {
  readonly Plan?: { readonly 'Plan Rows'?: unknown };
}

/**
 * PostgreSQL's estimate of the rows a select answers: `EXPLAIN (FORMAT JSON)` of the statement
 * with its own parameters (the planner sees the values, as for the page), and the `Plan Rows` of
 * its top node (the rows the whole query yields, after every condition and semi-join). Nothing
 * runs but the planner: it costs what planning the page costs, whatever the table's size. The
 * figure is as good as the table's statistics (`ANALYZE`, which autovacuum runs as rows change).
 *
 * @example
 * ```ts
 * const estimate = await explainRows(db, db.selectFrom('events').select('id').where('kind', '=', 'click').compile());
 * ```
 */
export async function explainRows(db: Kysely<unknown>, statement: CompiledQuery): Promise<number> {
  const explain = { ...statement, sql: `EXPLAIN (FORMAT JSON) ${statement.sql}` };
  const { rows } = await execute<Record<string, unknown>>(db, explain);
  const plan = rows[0]?.['QUERY PLAN'];
  // pg parses the json column; a Kysely instance of the application's may hand over its text.
  const [top] = (typeof plan === 'string' ? JSON.parse(plan) : plan) as ExplainedPlan[];
  const estimate = top?.Plan?.['Plan Rows'];
  if (typeof estimate !== 'number' || !Number.isFinite(estimate)) {
    throw new Error('EXPLAIN (FORMAT JSON) answered no "Plan Rows"');
  }
  return Math.round(estimate);
}
