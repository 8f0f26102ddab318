/**
 * Which statements the store's connections keep prepared. Its queries have few shapes (a show, a
 * page of a given filter and order, an update of given columns), and Kysely compiles each to the
 * same SQL text every time: preparing that text again for every request costs CPU, in Node
 * (SQLite's compiler runs in the process) or in the database server (PostgreSQL parses and plans
 * it). A statement whose text is made for one call is marked ({@link oneOff}) and never kept.
 */
import type { CompiledQuery } from 'kysely';

/** How the text of a statement made for one call begins: no cache keeps it (see {@link oneOff}). */
const ONE_OFF = '/* once */ ';

/** How many distinct statements are kept per connection (SQLite) or named (PostgreSQL); past it, statements are prepared per use. */
export const MAX_STATEMENTS = 500;

/**
 * The statement marked as made for one call: a multi-row INSERT, whose text changes with its
 * number of rows. Neither SQLite's cache of prepared statements nor PostgreSQL's named
 * statements keep it, so that it never takes the place of the statements that recur.
 *
 * @example
 * ```ts
 * await execute(db, oneOff(db.insertInto('books').values(rows).returning('id').compile()));
 * ```
 */
export function oneOff(statement: CompiledQuery): CompiledQuery {
  return { ...statement, sql: `${ONE_OFF}${statement.sql}` };
}

/**
 * Whether a statement's text was marked by {@link oneOff}: no cache keeps it.
 *
 * @example
 * ```ts
 * isOneOff(oneOff(compiled).sql); // true
 * ```
 */
export function isOneOff(text: string): boolean {
  return text.startsWith(ONE_OFF);
}
