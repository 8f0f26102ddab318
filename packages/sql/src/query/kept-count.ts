import type { CollectionSchema, Condition, ListQuery } from '@resourcery/core/store';
import { sql } from 'kysely';
import { fittedName } from '../ddl/names.js';
import type { SqlDialectSpec } from '../dialects/dialect.js';
import type { CollectionPlan, Db, Select } from '../store/collection-plan.js';

// A resource's kept count (`keepCount: true`, PostgreSQL): the number of each tenant's records
// that are not archived, kept as writes commit in `<table>__counts (<tenant>, shard, live)`, so
// that the count of a tenant's whole list is a sum of a few rows rather than a scan of a range of
// an index that grows with the tenant (docs/stores.md, "Kept counts"; docs/performance.md, "The
// tracker at 1M issues", eighth round). Triggers keep it, in the writing statement's transaction,
// whoever writes (the store, a bulk write, a foreign key's cascade, SQL by hand): an insert's and a
// delete's count their statement's rows once (statement-level, transition tables), an update's
// only the rows whose tenant or archive it changes (row-level, `WHEN`), a TRUNCATE's empties it.
// A tenant has up to {@link SHARDS} rows, one per writer's `pg_backend_pid() % SHARDS`, so that
// concurrent writers of one tenant seldom wait on one row. The other databases count as always.

/** The rows a tenant's count is spread over. */
const SHARDS = 8;

/** The objects of a kept count: its table, its trigger functions (and triggers, named alike). */
function objects(table: string) {
  const name = (suffix: string) => fittedName(`${table}__${suffix}`);
  return {
    counts: name('counts'),
    insert: name('count_insert'),
    delete: name('count_delete'),
    update: name('count_update'),
    truncate: name('count_truncate'),
  };
}

/**
 * Whether the store keeps the collection's count: `keepCount` on PostgreSQL.
 *
 * @example
 * ```ts
 * keepsCount({ ...issues, keepCount: true }, postgres); // true
 * ```
 */
export function keepsCount(schema: CollectionSchema, dialect: SqlDialectSpec): boolean {
  return schema.keepCount === true && dialect.name === 'postgres';
}

/**
 * The statement that makes a table's kept count unless it has it whole: one `DO` block that (when
 * the counts table or one of its triggers is missing) drops what is left of it, creates the counts
 * table, its functions and triggers, then counts the rows already there (`GROUP BY` the tenant),
 * all in one transaction and after the triggers hold the table's writers back, so that no write is
 * counted twice or missed. Nothing when the table's count is not kept.
 *
 * @example
 * ```ts
 * keptCountSql({ ...issues, keepCount: true }, 'issues', postgres); // ['DO $resourcery$ … $resourcery$']
 * ```
 */
export function keptCountSql(schema: CollectionSchema, table: string, dialect: SqlDialectSpec): string[] {
  if (!keepsCount(schema, dialect)) return [];
  const q = (name: string) => dialect.quote(name);
  const names = objects(table);
  const counts = q(names.counts);
  const tenant = schema.attributes.find((attribute) => attribute.name === schema.tenant);
  const key = tenant && q(tenant.name);
  const keys = key ? `${key}, "shard"` : '"shard"';
  const live = (row: string) => liveTest(schema, dialect, row);
  const shard = `(pg_backend_pid() % ${SHARDS})::smallint`;
  const add = `ON CONFLICT (${keys}) DO UPDATE SET "live" = ${counts}."live" + excluded."live"`;
  const counted = (rows: string, sign: string) =>
    `INSERT INTO ${counts} SELECT ${key ? `${key}, ` : ''}${shard}, ${sign}count(*) FROM ${rows} WHERE ${live('')}` +
    `${key ? ` GROUP BY ${key} ORDER BY ${key}` : ' HAVING count(*) > 0'} ${add};`;
  const one = (row: 'OLD' | 'NEW', sign: string) =>
    `IF ${live(`${row}.`)} THEN INSERT INTO ${counts} VALUES (${key ? `${row}.${key}, ` : ''}${shard}, ${sign}1) ${add}; END IF;`;
  const fn = (name: string, body: string) =>
    `CREATE OR REPLACE FUNCTION ${q(name)}() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT ` +
    `AS $body$ BEGIN ${body} RETURN NULL; END $body$;`;
  const trigger = (name: string, when: string) =>
    `CREATE TRIGGER ${q(name)} AFTER ${when} EXECUTE FUNCTION ${q(name)}();`;
  const t = q(table);
  const changes = countChanges(schema, dialect);
  const column = tenant && `${key} ${dialect.columnType({ ...tenant, nullable: false })} NOT NULL, `;
  const wanted = triggers(schema, dialect, table);
  const found = `SELECT count(*) FROM pg_trigger WHERE tgrelid = ${dialect.quoteString(t)}::regclass AND tgname IN (${wanted.map(dialect.quoteString).join(', ')})`;
  return [
    [
      'DO $resourcery$ BEGIN',
      `IF to_regclass(${dialect.quoteString(counts)}) IS NOT NULL AND (${found}) = ${wanted.length} THEN RETURN; END IF;`,
      `DROP TABLE IF EXISTS ${counts};`,
      ...wanted.map((name) => `DROP TRIGGER IF EXISTS ${q(name)} ON ${t};`),
      `CREATE TABLE ${counts} (${column ?? ''}"shard" SMALLINT NOT NULL, "live" BIGINT NOT NULL, PRIMARY KEY (${keys}));`,
      fn(names.insert, counted('new_rows', '')),
      fn(names.delete, counted('old_rows', '-')),
      fn(names.truncate, `DELETE FROM ${counts};`),
      trigger(names.insert, `INSERT ON ${t} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT`),
      trigger(names.delete, `DELETE ON ${t} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT`),
      trigger(names.truncate, `TRUNCATE ON ${t} FOR EACH STATEMENT`),
      ...(changes
        ? [
            fn(names.update, `${one('OLD', '-')} ${one('NEW', '')}`),
            trigger(names.update, `UPDATE ON ${t} FOR EACH ROW WHEN (${changes})`),
          ]
        : []),
      `INSERT INTO ${counts} SELECT ${key ? `${key}, ` : ''}0, count(*) FROM ${t} WHERE ${live('')}${key ? ` GROUP BY ${key}` : ''};`,
      'END $resourcery$',
    ].join('\n'),
  ];
}

/** Whether a row (`NEW.`, `OLD.`, or the table's own: '') is counted: not archived, with a tenant. */
function liveTest(schema: CollectionSchema, dialect: SqlDialectSpec, row: string): string {
  const tests = [];
  if (schema.archive) tests.push(`${row}${dialect.quote(schema.archive)} IS NULL`);
  if (schema.tenant) tests.push(`${row}${dialect.quote(schema.tenant)} IS NOT NULL`);
  return tests.join(' AND ') || 'TRUE';
}

/**
 * The `WHEN` of the update's trigger: the row's archive or tenant changed. `undefined` when the
 * collection has neither (then no update changes its count, and there is no update trigger).
 */
function countChanges(schema: CollectionSchema, dialect: SqlDialectSpec): string | undefined {
  const tests = [];
  if (schema.archive) {
    const archive = dialect.quote(schema.archive);
    tests.push(`(OLD.${archive} IS NULL) IS DISTINCT FROM (NEW.${archive} IS NULL)`);
  }
  if (schema.tenant)
    tests.push(`OLD.${dialect.quote(schema.tenant)} IS DISTINCT FROM NEW.${dialect.quote(schema.tenant)}`);
  return tests.length > 0 ? tests.join(' OR ') : undefined;
}

/**
 * The statements that remove a table's kept count (a migration's `down`): its table and functions
 * (the triggers go with the table they are on, or with their functions). Nothing when the table's
 * count is not kept.
 *
 * @example
 * ```ts
 * dropKeptCountSql(issues, 'issues', postgres); // ['DROP TABLE IF EXISTS "issues__counts"', 'DROP FUNCTION IF EXISTS … CASCADE', …]
 * ```
 */
export function dropKeptCountSql(schema: CollectionSchema, table: string, dialect: SqlDialectSpec): string[] {
  if (!keepsCount(schema, dialect)) return [];
  const { counts, ...functions } = objects(table);
  return [
    `DROP TABLE IF EXISTS ${dialect.quote(counts)}`,
    ...Object.values(functions).map((name) => `DROP FUNCTION IF EXISTS ${dialect.quote(name)}() CASCADE`),
  ];
}

/** The triggers of a table's kept count: an insert's, a delete's, a TRUNCATE's, and an update's if one can change it. */
function triggers(schema: CollectionSchema, dialect: SqlDialectSpec, table: string): string[] {
  const { counts, update, ...others } = objects(table);
  return [...Object.values(others), ...(countChanges(schema, dialect) ? [update] : [])];
}

/**
 * What an existing table lacks of its kept count: the counts table, or one of its triggers, with
 * the statement of {@link keptCountSql} that makes them again (and counts the rows afresh).
 *
 * @example
 * ```ts
 * await keptCountDrift(db, schema, 'issues', postgres); // ['its kept count (keepCount) has no table "issues__counts": run DO …']
 * ```
 */
export async function keptCountDrift(
  db: Db,
  schema: CollectionSchema,
  table: string,
  dialect: SqlDialectSpec,
): Promise<string[]> {
  const [statement] = keptCountSql(schema, table, dialect);
  if (statement === undefined) return [];
  const { counts } = objects(table);
  const needed = triggers(schema, dialect, table);
  const { rows } = await sql<{ counts: boolean; names: string[] }>`select
    to_regclass(${dialect.quote(counts)}) is not null as counts,
    array(select tgname::text from pg_trigger where tgrelid = to_regclass(${dialect.quote(table)})) as names`.execute(
    db,
  );
  const [{ counts: made = false, names = [] } = {}] = rows;
  const missing = needed.filter((name) => !names.includes(name)).map((name) => `"${name}"`);
  const lacks = !made ? `no table "${counts}"` : missing.length > 0 ? `no trigger ${missing.join(', ')}` : undefined;
  if (!lacks) return [];
  return [`its kept count (keepCount) has ${lacks}: run ${statement} (it makes them and counts the rows afresh)`];
}

/**
 * The tenant's conditions of a list (one, or none without a tenant) when its conditions are
 * exactly those of the tenant's whole list: the tenant's one value (if the collection has a
 * tenant) and the archive's `IS NULL` (if it archives), nothing else (no filter, no search, no
 * relation, no row rule), on a collection whose count is kept; `undefined` otherwise.
 */
function wholeList(plan: CollectionPlan, query: ListQuery): Condition[] | undefined {
  const { schema } = plan;
  if (!keepsCount(schema, plan.dialect) || query.perGroup) return undefined;
  const plain = (condition: Condition) => !condition.related && !condition.search && condition.values.length === 1;
  const tenant = (condition: Condition) =>
    plain(condition) && condition.field === schema.tenant && !condition.op && condition.values[0] !== null;
  const live = (condition: Condition) =>
    plain(condition) && condition.field === schema.archive && condition.op === 'null' && condition.values[0] === true;
  const wanted = [schema.tenant && tenant, schema.archive && live].filter((test) => typeof test === 'function');
  const { where } = query;
  if (where.length !== wanted.length || wanted.some((test) => where.filter(test).length !== 1)) return undefined;
  return where.filter(tenant);
}

/**
 * Whether the kept count answers a list's total ({@link keptTotal}): then exactly, whatever the
 * list's `count` asks.
 *
 * @example
 * ```ts
 * keptAnswers(plan, { ...query, where: [{ field: 'orgId', values: [1] }, { field: 'archivedAt', values: [true], op: 'null' }] }); // true
 * ```
 */
export function keptAnswers(plan: CollectionPlan, query: ListQuery): boolean {
  return wholeList(plan, query) !== undefined;
}

/**
 * The kept count's select that answers a list's total when {@link keptAnswers}: the sum of the
 * tenant's rows of the counts table; `undefined` otherwise.
 *
 * @example
 * ```ts
 * keptTotal(plan, db, { ...query, where: [{ field: 'orgId', values: [1] }, { field: 'archivedAt', values: [true], op: 'null' }] });
 * // SELECT coalesce(sum("live"), 0) AS total FROM "issues__counts" WHERE "orgId" = $1
 * ```
 */
export function keptTotal(plan: CollectionPlan, db: Db, query: ListQuery): Select | undefined {
  const tenant = wholeList(plan, query);
  if (!tenant) return undefined;
  return plan
    .filtered(db.selectFrom(objects(plan.table).counts), tenant)
    .select(sql<string>`coalesce(sum(${sql.ref('live')}), 0)`.as('total'));
}
