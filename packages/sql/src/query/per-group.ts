import type { Condition, ListQuery, Scalar } from '@resourcery/core/store';
import { sql } from 'kysely';
import type { CollectionPlan, Db, Select } from '../store/collection-plan.js';

/** The window column of the ranked plan (never selected into records). */
const RANK = 'resourcery_rank';
/** The names of the lateral plan's key list and of each group it joins. */
const KEYS = 'resourcery_keys';
const GROUP = 'resourcery_group';
/**
 * Most groups read by one `UNION ALL` (SQLite refuses more than 500 terms in a compound select);
 * a list with more keys is ranked instead. Pages of parents are at most 100 by default.
 */
const MAX_UNION = 200;

/** The alias of the derived table a per-group list selects from (its columns are the collection's). */
export const PER_GROUP = 'grouped';
/** The array types PostgreSQL's lateral plan sends the keys as, by attribute type. */
const ARRAY_TYPES: Readonly<Record<string, string>> = { integer: 'bigint[]', uuid: 'uuid[]' };

/** The groups a per-group list reads: the values of its plain `IN` condition on the field, and its other conditions. */
function groups(query: ListQuery): { keys: Scalar[]; rest: Condition[] } | undefined {
  const { field } = query.perGroup as NonNullable<ListQuery['perGroup']>;
  const at = query.where.findIndex((c) => c.field === field && c.op === undefined && c.related === undefined);
  const condition = query.where[at];
  if (!condition || condition.values.length === 0) return undefined;
  const keys = [...new Set(condition.values)];
  return { keys, rest: query.where.filter((_, index) => index !== at) };
}

/** The first `limit` records (every column) matching `where`, in the list's order: one group. */
function firstOf(plan: CollectionPlan, db: Db, query: ListQuery, where: readonly Condition[]): Select {
  const { limit } = query.perGroup as NonNullable<ListQuery['perGroup']>;
  const select = plan.filtered(db.selectFrom(plan.table).select(plan.codec.columns), where);
  return plan.ordered(select, query.order).limit(limit);
}

/**
 * Every record ranked in its group by `ROW_NUMBER() OVER (PARTITION BY field ORDER BY …)`, the
 * first `limit` kept: reads every record of the groups, so only for lists whose groups are not
 * listed (no `IN` on the field) or too many.
 */
function ranked(plan: CollectionPlan, db: Db, query: ListQuery): Select {
  const { field, limit } = query.perGroup as NonNullable<ListQuery['perGroup']>;
  const rows = plan
    .filtered(db.selectFrom(plan.table), query.where)
    .select(plan.codec.columns)
    .select((eb) =>
      eb.fn
        .agg<number>('row_number')
        .over((over) => {
          let window = over.partitionBy(plan.column(field));
          for (const key of query.order) window = window.orderBy(plan.column(key.field), plan.direction(key));
          return window;
        })
        .as(RANK),
    );
  return db.selectFrom(rows.as(PER_GROUP)).where(RANK, '<=', limit);
}

/**
 * PostgreSQL: the keys as one array parameter, each joined (`CROSS JOIN LATERAL`) to its first
 * records, read through the index on (field, id); the `null` group, if asked, by a branch of its own.
 */
function lateral(plan: CollectionPlan, db: Db, query: ListQuery, keys: Scalar[], rest: Condition[]): Select {
  const { field } = query.perGroup as NonNullable<ListQuery['perGroup']>;
  const type = ARRAY_TYPES[plan.schema.attributes.find((a) => a.name === field)?.type ?? ''] as string;
  const values = keys.filter((key) => key !== null).map((key) => plan.codec.toParameter(field, key));
  const list = sql`unnest(cast(${values} as ${sql.raw(type)}))`.as(KEYS);
  const column = plan.column(field);
  const group = firstOf(plan, db, query, rest)
    .where(sql.ref(`${plan.table}.${column}`), '=', sql.ref(`${KEYS}.${KEYS}`))
    .as(GROUP);
  let source = db.selectFrom(list).crossJoinLateral(group).selectAll(GROUP);
  if (keys.includes(null)) {
    const nulls = firstOf(plan, db, query, [{ field, values: [null] }, ...rest]);
    source = source.unionAll(db.selectFrom(nulls.as('nulls')).selectAll());
  }
  return db.selectFrom(source.as(PER_GROUP));
}

/** Elsewhere: one `SELECT … WHERE field = key … ORDER BY … LIMIT` per key, in one `UNION ALL`. */
function union(plan: CollectionPlan, db: Db, query: ListQuery, keys: Scalar[], rest: Condition[]): Select {
  const { field } = query.perGroup as NonNullable<ListQuery['perGroup']>;
  const branches = keys.map((key, index) =>
    db.selectFrom(firstOf(plan, db, query, [{ field, values: [key] }, ...rest]).as(`g${index}`)).selectAll(),
  );
  const [first, ...others] = branches as [Select, ...Select[]];
  const source = others.reduce((all, branch) => all.unionAll(branch), first);
  return db.selectFrom(source.as(PER_GROUP));
}

/**
 * The records a per-group list chooses from, as a derived table the page is then taken from:
 * at most `perGroup.limit` records of each group, the first in the list's order. When the list
 * names its groups (`field IN (…)`, as a has-many `include` does), each group is read on its
 * own, `ORDER BY … LIMIT n` through the index on (field, id), so the cost follows what is
 * returned, not how many records the groups hold: a `CROSS JOIN LATERAL` on PostgreSQL (integer
 * and uuid keys), a `UNION ALL` of one such query per key elsewhere (MariaDB has no `LATERAL`).
 * Otherwise the records are ranked by a window function.
 *
 * @example
 * ```ts
 * const page = perGroupSource(plan, db, query).select(columns).orderBy('id').limit(query.limit);
 * ```
 */
export function perGroupSource(plan: CollectionPlan, db: Db, query: ListQuery): Select {
  const listed = groups(query);
  if (!listed) return ranked(plan, db, query);
  const { field } = query.perGroup as NonNullable<ListQuery['perGroup']>;
  const type = plan.schema.attributes.find((a) => a.name === field)?.type ?? '';
  if (plan.dialect.lateralJoins && ARRAY_TYPES[type] && listed.keys.some((key) => key !== null)) {
    return lateral(plan, db, query, listed.keys, listed.rest);
  }
  if (listed.keys.length > MAX_UNION) return ranked(plan, db, query);
  return union(plan, db, query, listed.keys, listed.rest);
}
