// The books in SQL for the hand-written SQL contenders (express-sql, express-sql-nocount), as a
// careful developer would write them without the library: parameterized SQL on `pg` (a pool of
// 10, plain `pool.query(text, values)`) or better-sqlite3 (statements prepared once), over the
// query books.mjs parsed. Both answer the same interface: `get(id)`, `insert(values)`,
// `update(id, changes)` (one `UPDATE … RETURNING`, `undefined` when no row), `delete(id)`,
// `list(query, count)`, `close()`.
import { POOL_SIZE, SQLITE_SYNCHRONOUS } from '../../lib/databases.mjs';

const COLUMNS = 'id, name, author';

/**
 * The WHERE and ORDER BY of a parsed list query; `param(value)` answers a value's placeholder.
 * The field names were checked against the attributes by parseListQuery, so they go in as is.
 */
function listClauses(query, param) {
  const conditions = query.where.map(({ field, values }) =>
    values.length === 1 ? `${field} = ${param(values[0])}` : `${field} IN (${values.map(param).join(', ')})`,
  );
  return {
    where: conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '',
    order: query.order.map(({ field, descending }) => (descending ? `${field} DESC` : field)).join(', '),
  };
}

/** Without a count, the page was read with one row more: it tells whether a next page exists. */
function uncountedPage(rows, perPage) {
  return { books: rows.length > perPage ? rows.slice(0, perPage) : rows, hasMore: rows.length > perPage };
}

/** Largest id of a SERIAL (int4) column: a bigger one is a book that cannot exist. */
const MAX_SERIAL = 2 ** 31 - 1;

/** The books in PostgreSQL through a `pg` pool of 10. */
export async function postgresBooks(connectionString) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString, max: POOL_SIZE });
  const first = async (text, values) => (await pool.query(text, values)).rows[0];
  return {
    get: (id) => (id > MAX_SERIAL ? undefined : first(`SELECT ${COLUMNS} FROM books WHERE id = $1`, [id])),
    insert: ({ name, author }) =>
      first(`INSERT INTO books (name, author) VALUES ($1, $2) RETURNING ${COLUMNS}`, [name, author]),
    update: (id, { name, author }) =>
      id > MAX_SERIAL
        ? undefined
        : first(
            `UPDATE books SET name = COALESCE($2, name), author = COALESCE($3, author) WHERE id = $1 RETURNING ${COLUMNS}`,
            [id, name ?? null, author ?? null],
          ),
    async delete(id) {
      return id <= MAX_SERIAL && (await pool.query('DELETE FROM books WHERE id = $1', [id])).rowCount > 0;
    },
    async list(query, count) {
      const values = [];
      const param = (value) => {
        values.push(value);
        return `$${values.length}`;
      };
      const { where, order } = listClauses(query, param);
      const filterValues = [...values];
      const limit = param(count ? query.perPage : query.perPage + 1);
      const page = pool.query(
        `SELECT ${COLUMNS} FROM books${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${param((query.page - 1) * query.perPage)}`,
        values,
      );
      if (!count) return uncountedPage((await page).rows, query.perPage);
      // The page and the count at once, on two connections of the pool.
      const [{ rows }, counted] = await Promise.all([
        page,
        pool.query(`SELECT count(*)::int AS total FROM books${where}`, filterValues),
      ]);
      return { books: rows, total: counted.rows[0].total };
    },
    close: () => pool.end(),
  };
}

/** Most list statements kept prepared (one per shape of query: filters, values, order). */
const PREPARED_LISTS = 500;

/** The books in SQLite through one better-sqlite3 connection (WAL, `synchronous = FULL`). */
export async function sqliteBooks(path) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${SQLITE_SYNCHRONOUS}`);
  const get = db.prepare(`SELECT ${COLUMNS} FROM books WHERE id = ?`);
  const insert = db.prepare(`INSERT INTO books (name, author) VALUES (?, ?) RETURNING ${COLUMNS}`);
  const update = db.prepare(
    `UPDATE books SET name = COALESCE(?, name), author = COALESCE(?, author) WHERE id = ? RETURNING ${COLUMNS}`,
  );
  const remove = db.prepare('DELETE FROM books WHERE id = ?');
  const lists = new Map();
  const prepared = (text) => {
    let statement = lists.get(text);
    if (!statement) {
      if (lists.size >= PREPARED_LISTS) lists.clear();
      statement = db.prepare(text);
      lists.set(text, statement);
    }
    return statement;
  };
  return {
    get: (id) => get.get(id),
    insert: ({ name, author }) => insert.get(name, author),
    update: (id, { name, author }) => update.get(name ?? null, author ?? null, id),
    delete: (id) => remove.run(id).changes > 0,
    list(query, count) {
      const values = [];
      const param = (value) => {
        values.push(value);
        return '?';
      };
      const { where, order } = listClauses(query, param);
      const filterValues = [...values];
      values.push(count ? query.perPage : query.perPage + 1, (query.page - 1) * query.perPage);
      const rows = prepared(`SELECT ${COLUMNS} FROM books${where} ORDER BY ${order} LIMIT ? OFFSET ?`).all(values);
      if (!count) return uncountedPage(rows, query.perPage);
      return { books: rows, total: prepared(`SELECT count(*) AS total FROM books${where}`).get(filterValues).total };
    },
    close: () => db.close(),
  };
}

/** The store for a database from lib/databases.mjs (`freshDatabase`). */
export const openSqlBooks = (database) =>
  database.kind === 'postgres' ? postgresBooks(database.location) : sqliteBooks(database.location);
