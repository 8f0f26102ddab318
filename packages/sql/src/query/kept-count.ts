import type { AttributeSchema, CollectionSchema } from '@resourcery/core/store';
import { sql } from 'kysely';
import type { StoredJoin } from '../ddl/join-copies.js';
import { fittedName } from '../ddl/names.js';
import type { SqlDialectSpec } from '../dialects/dialect.js';
import type { Db } from '../store/collection-plan.js';

// A resource's kept count (`keepCount: true`, PostgreSQL): the number of each tenant's records
// that are not archived, kept as writes commit in `<table>__counts (<tenant>, shard, live)`, so
// that the count of a tenant's whole list is a sum of a few rows rather than a scan of a range of
// an index that grows with the tenant (docs/stores.md, "Kept counts"; docs/performance.md, "The
// tracker at 1M issues", eighth round). The join tables of its sets keep theirs too, per other
// record and tenant, from the copies on their rows (`issue_labels__counts (labelId, orgId, shard,
// live)`: the issues of a label, the count of `filter[labels.name]=bug`; tenth round). Triggers
// keep it, in the writing statement's transaction, whoever writes (the store, a bulk write, a
// foreign key's cascade, SQL by hand): an insert's and a delete's count their statement's rows
// once (statement-level, transition tables), an update's only the rows whose keys or archive it
// changes (row-level, `WHEN`), a TRUNCATE's empties it. A key has up to {@link SHARDS} rows, one
// per writer's `pg_backend_pid() % SHARDS`, so that concurrent writers of one tenant seldom wait
// on one row. The other databases count as always.

/**
 * What a table's kept count counts: its rows per value of `keys` (the tenant; a join table's other
 * record's id and the tenant's copy) whose `archive` is null and whose `tenant` is not.
 */
export interface KeptCount {
  readonly keys: readonly AttributeSchema[];
  readonly archive?: string;
  readonly tenant?: string;
}

/**
 * The kept count of a collection's table, or of a join table of a collection that keeps its count
 * (query/kept-count.ts): on PostgreSQL; `undefined` for any other table or database.
 *
 * @example
 * ```ts
 * keptCount({ ...issues, keepCount: true }, postgres); // { keys: [orgId], archive: 'archivedAt', tenant: 'orgId' }
 * ```
 */
export function keptCount(schema: CollectionSchema, dialect: SqlDialectSpec): KeptCount | undefined {
  if (dialect.name !== 'postgres') return undefined;
  const attribute = (name?: string) => schema.attributes.find((one) => one.name === name);
  const { copies } = schema as StoredJoin;
  if (copies?.keepCount) {
    const keys = [attribute(copies.value), attribute(copies.tenant)].filter((one) => one !== undefined);
    return { keys, archive: copies.archive, tenant: copies.tenant };
  }
  if (schema.keepCount !== true) return undefined;
  const tenant = attribute(schema.tenant);
  return { keys: tenant ? [tenant] : [], archive: schema.archive, tenant: schema.tenant };
}

/** The rows a tenant's count is spread over. */
const SHARDS = 8;

/**
 * The table of a table's kept count (`issues__counts`).
 *
 * @example
 * ```ts
 * countsTable('issue_labels'); // 'issue_labels__counts'
 * ```
 */
export function countsTable(table: string): string {
  return objects(table).counts;
}

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
  const kept = keptCount(schema, dialect);
  if (!kept) return [];
  const q = (name: string) => dialect.quote(name);
  const names = objects(table);
  const counts = q(names.counts);
  const columns = kept.keys.map((key) => q(key.name));
  const listed = (row = '') => columns.map((column) => `${row}${column}, `).join('');
  const keys = [...columns, '"shard"'].join(', ');
  const live = (row: string) => liveTest(kept, dialect, row);
  const shard = `(pg_backend_pid() % ${SHARDS})::smallint`;
  const add = `ON CONFLICT (${keys}) DO UPDATE SET "live" = ${counts}."live" + excluded."live"`;
  const grouped = columns.length > 0 ? ` GROUP BY ${columns.join(', ')}` : '';
  const counted = (rows: string, sign: string) =>
    `INSERT INTO ${counts} SELECT ${listed()}${shard}, ${sign}count(*) FROM ${rows} WHERE ${live('')}` +
    `${grouped ? `${grouped} ORDER BY ${columns.join(', ')}` : ' HAVING count(*) > 0'} ${add};`;
  const one = (row: 'OLD' | 'NEW', sign: string) =>
    `IF ${live(`${row}.`)} THEN INSERT INTO ${counts} VALUES (${listed(`${row}.`)}${shard}, ${sign}1) ${add}; END IF;`;
  const fn = (name: string, body: string) =>
    `CREATE OR REPLACE FUNCTION ${q(name)}() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT ` +
    `AS $body$ BEGIN ${body} RETURN NULL; END $body$;`;
  const trigger = (name: string, when: string) =>
    `CREATE TRIGGER ${q(name)} AFTER ${when} EXECUTE FUNCTION ${q(name)}();`;
  const t = q(table);
  const changes = countChanges(kept, dialect);
  const definitions = kept.keys.map(
    (key) => `${q(key.name)} ${dialect.columnType({ ...key, nullable: false })} NOT NULL, `,
  );
  const wanted = triggers(kept, dialect, table);
  const found = `SELECT count(*) FROM pg_trigger WHERE tgrelid = ${dialect.quoteString(t)}::regclass AND tgname IN (${wanted.map(dialect.quoteString).join(', ')})`;
  return [
    [
      'DO $resourcery$ BEGIN',
      `IF to_regclass(${dialect.quoteString(counts)}) IS NOT NULL AND (${found}) = ${wanted.length} THEN RETURN; END IF;`,
      `DROP TABLE IF EXISTS ${counts};`,
      ...wanted.map((name) => `DROP TRIGGER IF EXISTS ${q(name)} ON ${t};`),
      `CREATE TABLE ${counts} (${definitions.join('')}"shard" SMALLINT NOT NULL, "live" BIGINT NOT NULL, PRIMARY KEY (${keys}));`,
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
      `INSERT INTO ${counts} SELECT ${listed()}0, count(*) FROM ${t} WHERE ${live('')}${grouped};`,
      'END $resourcery$',
    ].join('\n'),
  ];
}

/** Whether a row (`NEW.`, `OLD.`, or the table's own: '') is counted: not archived, with a tenant. */
function liveTest(kept: KeptCount, dialect: SqlDialectSpec, row: string): string {
  const tests = [];
  if (kept.archive) tests.push(`${row}${dialect.quote(kept.archive)} IS NULL`);
  if (kept.tenant) tests.push(`${row}${dialect.quote(kept.tenant)} IS NOT NULL`);
  return tests.join(' AND ') || 'TRUE';
}

/**
 * The `WHEN` of the update's trigger: the row's archive's nullness or one of its keys changed.
 * `undefined` when the count has neither (then no update changes it, and there is no update trigger).
 */
function countChanges(kept: KeptCount, dialect: SqlDialectSpec): string | undefined {
  const tests = [];
  if (kept.archive) {
    const archive = dialect.quote(kept.archive);
    tests.push(`(OLD.${archive} IS NULL) IS DISTINCT FROM (NEW.${archive} IS NULL)`);
  }
  for (const key of kept.keys)
    tests.push(`OLD.${dialect.quote(key.name)} IS DISTINCT FROM NEW.${dialect.quote(key.name)}`);
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
  if (!keptCount(schema, dialect)) return [];
  const { counts, ...functions } = objects(table);
  return [
    `DROP TABLE IF EXISTS ${dialect.quote(counts)}`,
    ...Object.values(functions).map((name) => `DROP FUNCTION IF EXISTS ${dialect.quote(name)}() CASCADE`),
  ];
}

/** The triggers of a table's kept count: an insert's, a delete's, a TRUNCATE's, and an update's if one can change it. */
function triggers(kept: KeptCount, dialect: SqlDialectSpec, table: string): string[] {
  const { counts, update, ...others } = objects(table);
  return [...Object.values(others), ...(countChanges(kept, dialect) ? [update] : [])];
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
  const kept = keptCount(schema, dialect);
  const [statement] = keptCountSql(schema, table, dialect);
  if (!kept || statement === undefined) return [];
  const { counts } = objects(table);
  const needed = triggers(kept, dialect, table);
  const { rows } = await sql<{ counts: boolean; names: string[] }>`select
    to_regclass(${dialect.quote(counts)}) is not null as counts,
    array(select tgname::text from pg_trigger where tgrelid = to_regclass(${dialect.quote(table)})) as names`.execute(
    db,
  );
  const [{ counts: made = false, names = [] } = {}] = rows;
  const missing = needed.filter((name) => !names.includes(name)).map((name) => `"${name}"`);
  const lacks = !made ? `no table "${counts}"` : missing.length > 0 ? `no trigger ${missing.join(', ')}` : undefined;
  if (!lacks) return [];
  const owner = (schema as StoredJoin).copies?.owner;
  const declared = owner ? `keepCount of ${owner}` : 'keepCount';
  return [`its kept count (${declared}) has ${lacks}: run ${statement} (it makes them and counts the rows afresh)`];
}
