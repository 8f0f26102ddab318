import {
  type CollectionSchema,
  type Scalar,
  type SearchCondition,
  type StoredRecord,
  searchWords,
} from '@resourcery/core/store';
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { constraintName } from '../ddl/names.js';
import type { SqlDialectSpec } from '../dialects/dialect.js';
import { tenantWordMatches, tenantWordsColumn, tenantWordsDdl, usesTenantWords } from './search-tenant-words.js';
import { usesWordsTable, wordsTableMatches, wordsTableSql } from './search-words-table.js';

// `q=` search in SQL (docs/search.md). The words are made and case-folded in JS by the core's
// one definition (`searchWords`), never by the database: a database's own folding is bound to a
// locale or to its Unicode version, and its full-text parsers stem, drop stop words or skip short
// words, all of which would answer otherwise than the memory store. The store keeps, next to
// each searchable field, a column of that field's folded words (`<field>__words`), written in the
// same INSERT or UPDATE as the field itself (so on every write path), and indexes it:
// - PostgreSQL: the column is a `tsvector` of the words (its text form, no configuration, so
//   nothing is folded or stemmed), with a GIN index; a word is the tsquery `'word':*`. Under
//   tenancy, the words after their tenant instead (search-tenant-words.ts).
// - SQLite: the column is the words as text, indexed by an FTS5 table `<table>__search` (external
//   content, the `ascii` tokenizer, which splits only on the spaces between the words) kept by
//   triggers; a word is the prefix query `"word"*`. Tables with uuid ids (whose rowids VACUUM may
//   renumber) read the column with `instr(column, ' word') > 0` (a scan, see docs).
// - MySQL/MariaDB: the column is the words as text, and a words table of the store's own indexes
//   them (search-words-table.ts).

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
type Eb = ExpressionBuilder<any, any>;
type Bool = Expression<SqlBool>;

const NOTHING = sql<SqlBool>`1 = 0`;

/**
 * The column that holds a searchable field's folded words.
 *
 * @example
 * ```ts
 * wordsColumn('title'); // 'title__words'
 * ```
 */
export function wordsColumn(field: string): string {
  return `${field}__words`;
}

/** The FTS5 table of a SQLite table's search. */
export function ftsTable(table: string): string {
  return `${table}__search`;
}

/** Whether SQLite indexes the table's search with FTS5 (its ids are its rowids). */
export function usesFts(schema: CollectionSchema, dialect: SqlDialectSpec): boolean {
  return dialect.name === 'sqlite' && schema.attributes[0]?.type !== 'uuid';
}

/**
 * The words column's value for a field's value: the distinct folded words, as a `tsvector`
 * literal on PostgreSQL (`'login' 'crash'`), else each after a space (` login crash`); `null` for `null`.
 *
 * @example
 * ```ts
 * wordsValue('Login crash, login', sqlite); // ' login crash'
 * ```
 */
export function wordsValue(value: unknown, dialect: SqlDialectSpec): string | null {
  if (typeof value !== 'string') return null;
  const words = [...new Set(searchWords(value))];
  if (dialect.name === 'postgres') return words.map((word) => `'${word.replace(/['\\]/g, '\\$&')}'`).join(' ');
  return words.map((word) => ` ${word}`).join('');
}

/**
 * The words columns a write sets: one per searchable field it writes (on create, every one,
 * from the value or the field's default).
 *
 * @example
 * ```ts
 * wordsColumns(schema, { title: 'Login crash' }, false, postgres); // { title__words: "'login' 'crash'" }
 * ```
 */
export function wordsColumns(
  schema: CollectionSchema,
  values: Readonly<Partial<StoredRecord>>,
  create: boolean,
  dialect: SqlDialectSpec,
): Record<string, string | null> {
  const columns: Record<string, string | null> = {};
  for (const field of schema.search ?? []) {
    if (values[field] !== undefined) columns[wordsColumn(field)] = wordsValue(values[field], dialect);
    else if (create) {
      const fallback = schema.attributes.find((attribute) => attribute.name === field)?.default;
      columns[wordsColumn(field)] = wordsValue(fallback ?? null, dialect);
    }
  }
  return columns;
}

/**
 * The SQL of a search condition on `table`: for every word, one of the fields' words begins with it.
 * `tenant` is the one tenant the query's other conditions keep, if any (PostgreSQL then reads the
 * words by tenant).
 *
 * @example
 * ```ts
 * db.selectFrom('issues').select('id').where((eb) => searchMatches(eb, schema, 'issues', search, postgres));
 * ```
 */
export function searchMatches(
  eb: Eb,
  schema: CollectionSchema,
  table: string,
  search: SearchCondition,
  dialect: SqlDialectSpec,
  tenant?: Scalar,
): Bool {
  const fields = search.fields.filter((field) => schema.search?.includes(field));
  const columns = fields.map(wordsColumn);
  if (columns.length === 0 || search.words.length === 0) return NOTHING;
  if (usesWordsTable(schema, dialect)) return wordsTableMatches(eb, table, fields, search);
  if (usesFts(schema, dialect)) {
    const filter = `{${columns.join(' ')}}`;
    const match = search.words.map((word) => `${filter} : "${word.replaceAll('"', '""')}"*`).join(' AND ');
    const fts = ftsTable(table);
    return sql<SqlBool>`${sql.ref('id')} in (select rowid from ${sql.table(fts)} where ${sql.table(fts)} match ${match})`;
  }
  const byTenant = tenant !== undefined && usesTenantWords(schema, dialect);
  const each = search.words.map((word) => {
    const parts = fields.map((field) => {
      const column = wordsColumn(field);
      if (dialect.name !== 'postgres') return dialect.contains(column, ` ${word}`);
      const inTenant = byTenant ? tenantWordMatches(schema, field, tenant, word) : undefined;
      return inTenant ?? sql<SqlBool>`${sql.ref(column)} @@ ${`'${word.replace(/['\\]/g, '\\$&')}':*`}::tsquery`;
    });
    return parts.length === 1 ? (parts[0] as Bool) : eb.or(parts);
  });
  return each.length === 1 ? (each[0] as Bool) : eb.and(each);
}

/**
 * The column definitions of the words columns, and the statements that index them after the
 * table is created (each `IF NOT EXISTS`), or make before it what its columns use.
 *
 * @example
 * ```ts
 * const { columns, statements } = searchDdl(schema, 'issues', postgres);
 * ```
 */
export function searchDdl(
  schema: CollectionSchema,
  table: string,
  dialect: SqlDialectSpec,
): { before?: string[]; columns: string[]; statements: string[] } {
  const fields = schema.search ?? [];
  if (fields.length === 0) return { columns: [], statements: [] };
  const names = new Set(schema.attributes.map((attribute) => attribute.name));
  for (const column of fields.flatMap((field) => [wordsColumn(field), tenantWordsColumn(field)])) {
    if (names.has(column)) throw new TypeError(`${schema.name}: "${column}" holds the words of a field; rename it`);
  }
  const q = (name: string) => dialect.quote(name);
  const words = fields.map(wordsColumn);
  const columns = words.map((column) => `${q(column)} ${wordsColumnType(dialect)}`);
  if (usesTenantWords(schema, dialect)) {
    const byTenant = tenantWordsDdl(schema, table, dialect);
    return { before: byTenant.before, columns: [...columns, ...byTenant.columns], statements: byTenant.statements };
  }
  if (dialect.name === 'postgres') {
    const statements = words.map(
      (column) =>
        `CREATE INDEX IF NOT EXISTS ${q(constraintName(table, [column], 'idx'))} ON ${q(table)} USING gin (${q(column)})`,
    );
    return { columns, statements };
  }
  if (usesWordsTable(schema, dialect)) return { columns, statements: [wordsTableSql(schema, table, dialect)] };
  if (!usesFts(schema, dialect)) return { columns, statements: [] };
  const fts = ftsTable(table);
  const list = words.map(q).join(', ');
  const values = (row: 'new' | 'old') => words.map((column) => `${row}.${q(column)}`).join(', ');
  const remove = `INSERT INTO ${q(fts)} (${q(fts)}, rowid, ${list}) VALUES ('delete', old."id", ${values('old')});`;
  const add = `INSERT INTO ${q(fts)} (rowid, ${list}) VALUES (new."id", ${values('new')});`;
  return {
    columns,
    statements: [
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${q(fts)} USING fts5(${list}, content=${q(table)}, content_rowid='id', tokenize='ascii')`,
      `CREATE TRIGGER IF NOT EXISTS ${q(`${fts}_insert`)} AFTER INSERT ON ${q(table)} BEGIN ${add} END`,
      `CREATE TRIGGER IF NOT EXISTS ${q(`${fts}_delete`)} AFTER DELETE ON ${q(table)} BEGIN ${remove} END`,
      `CREATE TRIGGER IF NOT EXISTS ${q(`${fts}_update`)} AFTER UPDATE OF ${list} ON ${q(table)} BEGIN ${remove} ${add} END`,
    ],
  };
}

/** The type of a words column. */
export function wordsColumnType(dialect: SqlDialectSpec): string {
  if (dialect.name === 'postgres') return 'tsvector';
  return dialect.columnType({ name: 'words', type: 'string', nullable: true });
}
