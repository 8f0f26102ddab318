// The SQL of the hand-written bulk create of issues (bulk-issues.mjs), on better-sqlite3 or pg
// (the drivers @resourcery/sql uses), over the tables the library made for the tracker: the
// organization's ids among some (one `SELECT` per referenced table), and the issues written in
// one transaction, ONE multi-row `INSERT ... RETURNING` of their rows and one multi-row `INSERT`
// of their join rows. SQLite keeps a 2-place decimal as hundredths and the search words as
// ` word word` (indexed by the library's FTS5 triggers); PostgreSQL as `numeric` and a `tsvector`.
import { COLUMNS, decimalText, hundredths, RETURNED } from './bulk-issues.mjs';

const quote = (name) => `"${name}"`;
const INTEGERS = new Set(['id', 'orgId', 'projectId', 'priority', 'assigneeId']);

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
        const pairs = inserted.flatMap((row, index) => labelIds[index].map((label) => [row.id, label]));
        if (pairs.length > 0) {
          const values = pairs.map(() => '(?, ?)').join(', ');
          prepared(`insert into ${table('issue_labels')} ("issueId", "labelId") values ${values}`).run(...pairs.flat());
        }
        return inserted;
      });
      return write().map((row) => ({ ...row, estimate: row.estimate === null ? null : decimalText(row.estimate) }));
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
      const width = COLUMNS.length;
      const values = rows.map((_, r) => `(${COLUMNS.map((_, c) => `$${r * width + c + 1}`).join(', ')})`).join(', ');
      const insert = `insert into ${table('issues')} (${COLUMNS.map(quote).join(', ')}) values ${values} returning ${RETURNED.map(quote).join(', ')}`;
      const client = await pool.connect();
      try {
        await client.query('begin');
        const inserted = (
          await client.query(
            insert,
            rows.flatMap((row) => COLUMNS.map((c) => row[c])),
          )
        ).rows;
        // The rows' ids ascend in the order of the VALUES: the i-th smallest is entry i's.
        inserted.sort((a, b) => Number(a.id) - Number(b.id));
        const pairs = inserted.flatMap((row, index) => labelIds[index].map((label) => [row.id, label]));
        if (pairs.length > 0) {
          const list = pairs.map((_, p) => `($${2 * p + 1}, $${2 * p + 2})`).join(', ');
          await client.query(
            `insert into ${table('issue_labels')} ("issueId", "labelId") values ${list}`,
            pairs.flat(),
          );
        }
        await client.query('commit');
        return inserted.map(toRecord);
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
  };
}
