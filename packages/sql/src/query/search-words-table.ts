import type { CollectionSchema, Id, SearchCondition } from '@resourcery/core/store';
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import { constraintName } from '../ddl/names.js';
import type { SqlDialectSpec } from '../dialects/dialect.js';

// MySQL and MariaDB: their FULLTEXT indexes skip short words (`innodb_ft_min_token_size`) and
// stop words, and fold case and accents by the column's collation, so the store keeps a table of
// its own instead: `<table>__words (record_id, field, word)`, one row per distinct folded word of
// each searchable field of each record, primary key `(word, field, record_id)` under the binary
// collation, so that a word of `q` is one index range (`word >= 'cra' AND word < 'crb'`). The
// collection writes it in the transaction of each create and update (search-sql.ts made the
// words); a destroy takes its rows along (`ON DELETE CASCADE`).

// biome-ignore lint/suspicious/noExplicitAny: tables are only known at run time
type Eb = ExpressionBuilder<any, any>;
// biome-ignore lint/suspicious/noExplicitAny: as above
type Db = Kysely<any>;

/**
 * Whether the store keeps a words table for the collection: MySQL and MariaDB, with `search`.
 *
 * @example
 * ```ts
 * if (usesWordsTable(schema, mysql)) await writeWords(tx, schema, table, id, columns, mysql, false);
 * ```
 */
export function usesWordsTable(schema: CollectionSchema, dialect: SqlDialectSpec): boolean {
  return (dialect.name === 'mysql' || dialect.name === 'mariadb') && (schema.search?.length ?? 0) > 0;
}

/**
 * The words table of a table.
 *
 * @example
 * ```ts
 * wordsTable('issues'); // 'issues__words'
 * ```
 */
export function wordsTable(table: string): string {
  return `${table}__words`;
}

/** The smallest string after every string that starts with `word` (a word never ends with U+10FFFF or U+D7FF). */
function rangeEnd(word: string): string {
  const points = Array.from(word, (character) => character.codePointAt(0) as number);
  const last = points.pop() as number;
  return String.fromCodePoint(...points, last + 1);
}

/**
 * The statement that creates the words table of `table` if it is missing.
 *
 * @example
 * ```ts
 * wordsTableSql(schema, 'issues', mariadb); // 'CREATE TABLE IF NOT EXISTS `issues__words` (…)'
 * ```
 */
export function wordsTableSql(schema: CollectionSchema, table: string, dialect: SqlDialectSpec): string {
  const q = (name: string) => dialect.quote(name);
  const words = wordsTable(table);
  const id = schema.attributes[0]?.type === 'uuid' ? 'uuid' : 'integer';
  const text = (maxLength: number) => dialect.columnType({ name: 'word', type: 'string', nullable: false, maxLength });
  return [
    `CREATE TABLE IF NOT EXISTS ${q(words)} (`,
    `  ${q('record_id')} ${dialect.columnType({ name: 'record_id', type: id, nullable: false })} NOT NULL,`,
    `  ${q('field')} ${text(64)} NOT NULL,`,
    `  ${q('word')} ${text(100)} NOT NULL,`,
    `  PRIMARY KEY (${q('word')}, ${q('field')}, ${q('record_id')}),`,
    `  KEY ${q(constraintName(words, ['record_id', 'field'], 'idx'))} (${q('record_id')}, ${q('field')}),`,
    `  CONSTRAINT ${q(constraintName(words, ['record_id'], 'fkey'))} FOREIGN KEY (${q('record_id')}) ` +
      `REFERENCES ${q(table)} (${q('id')}) ON DELETE CASCADE`,
    ') ENGINE=InnoDB',
  ].join('\n');
}

/**
 * The records of `table` matching a search, through its words table: for each word, the ids
 * that have a word in that range in one of the fields.
 *
 * @example
 * ```ts
 * db.selectFrom('issues').selectAll().where((eb) => wordsTableMatches(eb, 'issues', ['title', 'body'], search));
 * ```
 */
export function wordsTableMatches(
  eb: Eb,
  table: string,
  fields: readonly string[],
  search: SearchCondition,
): Expression<SqlBool> {
  const words = wordsTable(table);
  const each = search.words.map((word) =>
    eb(
      'id',
      'in',
      eb
        .selectFrom(words)
        .select('record_id')
        .where('word', '>=', word)
        .where('word', '<', rangeEnd(word))
        .where('field', 'in', [...fields]),
    ),
  );
  return each.length === 1 ? (each[0] as Expression<SqlBool>) : eb.and(each);
}

/** The searchable fields whose words the written columns hold. */
function fieldsWritten(schema: CollectionSchema, columns: Readonly<Record<string, unknown>>): string[] {
  return (schema.search ?? []).filter((field) => Object.hasOwn(columns, `${field}__words`));
}

/** The rows of the words table for the words of one record's written fields. */
function wordRows(fields: readonly string[], id: Id, columns: Readonly<Record<string, unknown>>) {
  return fields.flatMap((field) => {
    const value = columns[`${field}__words`];
    const list = typeof value === 'string' ? value.split(' ').filter((word) => word !== '') : [];
    return list.map((word) => ({ record_id: id, field, word }));
  });
}

/** Inserts rows of a words table, several thousand (a long body) at a time: under the placeholders a statement may hold. */
async function insertWords(db: Db, table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 5000) {
    await db
      .insertInto(wordsTable(table))
      .values(rows.slice(start, start + 5000))
      .execute();
  }
}

/**
 * Writes the words of the searchable fields a create or update wrote (`columns` holds their words
 * columns, as search-sql.ts made them) to the words table: the record's rows of those fields are
 * replaced. Runs in the write's transaction.
 *
 * @example
 * ```ts
 * await writeWords(tx, schema, 'issues', 7, { title__words: ' login crash' }, mariadb, false);
 * ```
 */
export async function writeWords(
  db: Db,
  schema: CollectionSchema,
  table: string,
  id: Id,
  columns: Readonly<Record<string, unknown>>,
  dialect: SqlDialectSpec,
  create: boolean,
): Promise<void> {
  if (!usesWordsTable(schema, dialect)) return;
  const fields = fieldsWritten(schema, columns);
  if (fields.length === 0) return;
  if (!create) {
    await db.deleteFrom(wordsTable(table)).where('record_id', '=', id).where('field', 'in', fields).execute();
  }
  await insertWords(db, table, wordRows(fields, id, columns));
}

/**
 * Writes the words of new records (a bulk create: each id with the columns it was created with)
 * to the words table, in as few INSERTs as the placeholders allow. Runs in the write's transaction.
 *
 * @example
 * ```ts
 * await writeWordsOfMany(tx, schema, 'issues', [[7, { title__words: ' login' }], [8, { title__words: ' crash' }]], mariadb);
 * ```
 */
export async function writeWordsOfMany(
  db: Db,
  schema: CollectionSchema,
  table: string,
  records: readonly (readonly [Id, Readonly<Record<string, unknown>>])[],
  dialect: SqlDialectSpec,
): Promise<void> {
  if (!usesWordsTable(schema, dialect)) return;
  const rows = records.flatMap(([id, columns]) => wordRows(fieldsWritten(schema, columns), id, columns));
  await insertWords(db, table, rows);
}

/**
 * What the words table of `table` lacks, if anything: it must exist with its three columns.
 *
 * @example
 * ```ts
 * await wordsTableDrift(db, schema, 'issues', mariadb); // ['no table "issues__words" for the search']
 * ```
 */
export async function wordsTableDrift(
  db: Db,
  schema: CollectionSchema,
  table: string,
  dialect: SqlDialectSpec,
): Promise<string[]> {
  if (!usesWordsTable(schema, dialect)) return [];
  const columns = new Set((await dialect.describeColumns(db, wordsTable(table))).map((column) => column.name));
  const wanted = ['record_id', 'field', 'word'];
  if (wanted.every((name) => columns.has(name))) return [];
  return [
    `no table "${wordsTable(table)}" (${wanted.join(', ')}) for the search (the store creates it with the table)`,
  ];
}
