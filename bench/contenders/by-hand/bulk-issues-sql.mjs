// The SQL of the hand-written bulk create of issues (bulk-issues.mjs), on better-sqlite3 or pg
// (the drivers @resourcery/sql uses), over the tables the library made for the tracker: the
// organization's ids among some (one `SELECT` per referenced table), and the issues written in
// one transaction, ONE multi-row `INSERT ... RETURNING` of their rows, one multi-row `INSERT` of
// their join rows (with the copies of the issue's tenant and archive that the label filter's count
// reads, docs/many-to-many.md) and, as the tracker's issues are live, one multi-row `INSERT` of
// their changes into the change log (PostgreSQL: after an advisory lock that numbers them in commit
// order and a NOTIFY, as docs/live.md says; the lock and channel are the route's own). SQLite keeps
// a 2-place decimal as hundredths and the search words as ` word word` (indexed by the library's
// FTS5 triggers); PostgreSQL as `numeric` and a `tsvector`.
import { COLUMNS, decimalText, hundredths, RETURNED } from './bulk-issues.mjs';

const quote = (name) => `"${name}"`;
const INTEGERS = new Set(['id', 'orgId', 'projectId', 'priority', 'assigneeId']);
/** A join row: its two ids, then its copies of the issue's tenant and archive. */
const JOIN_COLUMNS = ['issueId', 'labelId', 'orgId', 'archivedAt'].map(quote).join(', ');
/** A change of the log: when, what, and the record after (a create has no before). */
const CHANGE_COLUMNS = ['committedAt', 'collection', 'kind', 'recordId', 'before', 'after'].map(quote).join(', ');

/** The records as answered (with their `labelIds`), and their join rows and changes' values. */
function written(records, labelIds) {
  const issues = records.map((record, index) => ({ ...record, labelIds: labelIds[index] }));
  const pairs = issues.flatMap((issue) => issue.labelIds.map((label) => [issue.id, label, issue.orgId, null]));
  const committedAt = Date.now();
  const changes = issues.map((issue) => [
    committedAt,
    'issues',
    'created',
    String(issue.id),
    null,
    JSON.stringify(issue),
  ]);
  return { issues, pairs, changes };
}

/**
 * The driver on a better-sqlite3 `Database` (statements prepared once per text).
 *
 * @example
 * ```js
 * const db = sqliteIssues(new Database(file), 'bulk_');
 * await db.visible('projects', 1, [3, 4]); // Set { 3, 4 } when both are organization 1's
 * ```
 */
export function sqliteIssues(database, prefix) {
  const statements = new Map();
  const prepared = (text) => {
    let statement = statements.get(text);
    if (!statement) {
      statement = database.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
  const table = (name) => quote(`${prefix}${name}`);
  const marks = (count) => Array.from({ length: count }, () => '?').join(', ');
  return {
    words: (searchWords) => (text) =>
      text === null ? null : [...new Set(searchWords(text))].map((w) => ` ${w}`).join(''),
    async visible(name, org, ids) {
      if (ids.length === 0) return new Set();
      const select = prepared(`select id from ${table(name)} where "orgId" = ? and id in (${marks(ids.length)})`);
      return new Set(select.pluck().all(org, ...ids));
    },
    async insertIssues(rows, labelIds) {
      const insert = prepared(
        `insert into ${table('issues')} (${COLUMNS.map(quote).join(', ')}) values ${rows
          .map(() => `(${marks(COLUMNS.length)})`)
          .join(', ')} returning ${RETURNED.map(quote).join(', ')}`,
      );
      const parameters = rows.flatMap((row) =>
        COLUMNS.map((column) =>
          column === 'estimate' && row.estimate !== null ? hundredths(row.estimate) : row[column],
        ),
      );
      const write = database.transaction(() => {
        // The rows' ids ascend in the order of the VALUES: the i-th smallest is entry i's.
        const inserted = insert.all(...parameters).sort((a, b) => a.id - b.id);
        const records = inserted.map((row) => ({
          ...row,
          estimate: row.estimate === null ? null : decimalText(row.estimate),
        }));
        const { issues, pairs, changes } = written(records, labelIds);
        if (pairs.length > 0) {
          const values = pairs.map(() => `(${marks(4)})`).join(', ');
          prepared(`insert into ${table('issue_labels')} (${JOIN_COLUMNS}) values ${values}`).run(...pairs.flat());
        }
        const log = `insert into ${table('resourcery_changes')} (${CHANGE_COLUMNS}) values ${changes
          .map(() => `(${marks(6)})`)
          .join(', ')} returning id`;
        prepared(log).all(...changes.flat());
        return issues;
      });
      return write();
    },
  };
}

/**
 * The driver on a `pg.Pool` whose `DATE` parser keeps the text (as the library's pool does).
 *
 * @example
 * ```js
 * const db = postgresIssues(pool, 'bulk_');
 * ```
 */
export function postgresIssues(pool, prefix) {
  const table = (name) => quote(`${prefix}${name}`);
  /** `($1, $2), ($3, $4)`: rows of parameters, numbered. */
  const numbered = (rows) =>
    rows.map((row, r) => `(${row.map((_, c) => `$${r * row.length + c + 1}`).join(', ')})`).join(', ');
  const LOCK = [0x62796861, 0x6e64]; // the route's own advisory lock (`byha`, `nd`)
  const CHANNEL = `${prefix}by_hand_changes`;
  const toRecord = (row) => {
    const record = {};
    for (const column of RETURNED) {
      const value = row[column];
      if (value === null) record[column] = null;
      else if (INTEGERS.has(column)) record[column] = Number(value);
      else if (value instanceof Date) record[column] = value.toISOString();
      else record[column] = value;
    }
    return record;
  };
  return {
    words: (searchWords) => (text) =>
      text === null ? null : [...new Set(searchWords(text))].map((w) => `'${w.replace(/['\\]/g, '\\$&')}'`).join(' '),
    async visible(name, org, ids) {
      if (ids.length === 0) return new Set();
      const select = `select id from ${table(name)} where "orgId" = $1 and id = any($2)`;
      const { rows } = await pool.query(select, [org, ids]);
      return new Set(rows.map((row) => Number(row.id)));
    },
    async insertIssues(rows, labelIds) {
      const values = rows.map((row) => COLUMNS.map((c) => row[c]));
      const insert = `insert into ${table('issues')} (${COLUMNS.map(quote).join(', ')}) values ${numbered(values)} returning ${RETURNED.map(quote).join(', ')}`;
      const client = await pool.connect();
      try {
        await client.query('begin');
        const inserted = (await client.query(insert, values.flat())).rows;
        // The rows' ids ascend in the order of the VALUES: the i-th smallest is entry i's.
        inserted.sort((a, b) => Number(a.id) - Number(b.id));
        const { issues, pairs, changes } = written(inserted.map(toRecord), labelIds);
        if (pairs.length > 0)
          await client.query(
            `insert into ${table('issue_labels')} (${JOIN_COLUMNS}) values ${numbered(pairs)}`,
            pairs.flat(),
          );
        await client.query('select pg_advisory_xact_lock($1, $2), pg_notify($3, $4)', [...LOCK, CHANNEL, 'by-hand']);
        await client.query(
          `insert into ${table('resourcery_changes')} (${CHANGE_COLUMNS}) values ${numbered(changes)} returning id`,
          changes.flat(),
        );
        await client.query('commit');
        return issues;
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
  };
}
