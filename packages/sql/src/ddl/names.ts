// The names the store gives indexes and constraints: predictable (`<table>_<fields>_<suffix>`,
// PostgreSQL's own convention), so that an error naming one tells the store which field broke it.

/**
 * Longest index or constraint name: PostgreSQL keeps 63 bytes, MySQL 64. The same limit
 * everywhere gives a constraint the same name in every database.
 */
const MAX_IDENTIFIER = 63;

/** 32-bit FNV-1a, to keep shortened names unique. */
function hash(text: string): string {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 0x01000193);
  return (value >>> 0).toString(16).padStart(8, '0');
}

/**
 * `<table>_<field>[_<field>…]_<suffix>`, shortened with a hash when it would exceed the
 * identifier limit (and measured in UTF-8 bytes, which is what the databases count).
 *
 * @example
 * ```ts
 * constraintName('books', ['authorId', 'title'], 'key'); // 'books_authorId_title_key'
 * ```
 */
export function constraintName(
  table: string,
  fields: readonly string[],
  suffix: 'idx' | 'key' | 'fkey' | 'check',
): string {
  return fittedName(`${table}_${fields.join('_')}_${suffix}`, `_${suffix}`);
}

/**
 * A name as it is when it fits the identifier limit, else a prefix of its whole code points, a
 * hash of it, and its `ending` (the part that says what the object is).
 *
 * @example
 * ```ts
 * fittedName('issues__counts'); // 'issues__counts'
 * fittedName(`${'x'.repeat(70)}_idx`, '_idx'); // 'xxx…x_1a2b3c4d_idx' (63 bytes)
 * ```
 */
export function fittedName(name: string, ending = ''): string {
  if (Buffer.byteLength(name) <= MAX_IDENTIFIER) return name;
  // Keep a prefix of whole code points that fits with `_<hash><ending>`.
  let kept = '';
  for (const character of name) {
    if (Buffer.byteLength(kept + character) > MAX_IDENTIFIER - 9 - Buffer.byteLength(ending)) break;
    kept += character;
  }
  return `${kept}_${hash(name)}${ending}`;
}

/**
 * `<table>_<field>_idx`: the index of one field (with the id), shortened when too long.
 *
 * @example
 * ```ts
 * indexName('books', 'name'); // 'books_name_idx'
 * ```
 */
export function indexName(table: string, field: string): string {
  return constraintName(table, [field], 'idx');
}

/**
 * `<table>_<fields>_key`: the unique index of a set of fields.
 *
 * @example
 * ```ts
 * uniqueName('books', ['isbn']); // 'books_isbn_key'
 * ```
 */
export function uniqueName(table: string, fields: readonly string[]): string {
  return constraintName(table, fields, 'key');
}

/**
 * `<table>_<field>_fkey`: the foreign key constraint of one field.
 *
 * @example
 * ```ts
 * foreignKeyName('books', 'authorId'); // 'books_authorId_fkey'
 * ```
 */
export function foreignKeyName(table: string, field: string): string {
  return constraintName(table, [field], 'fkey');
}

/**
 * `<table>_<field>_check`: the `CHECK` that limits a field to its declared values.
 *
 * @example
 * ```ts
 * checkName('issues', 'status'); // 'issues_status_check'
 * ```
 */
export function checkName(table: string, field: string): string {
  return constraintName(table, [field], 'check');
}
