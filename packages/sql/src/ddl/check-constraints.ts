import type { AttributeSchema, CollectionSchema, Scalar } from '@resourcery/core/store';
import type { CatalogCheck, SqlDialectSpec } from '../dialects/dialect.js';
import { checkName } from './names.js';

// The CHECKs that keep a column to its declared values (`@IsIn`, `@IsEnum`): made with the table,
// named `<table>_<field>_check`, and looked for by the drift check in what the catalog answers.

/** A `CHECK` the store gives a table: one per attribute with `values`. */
export interface TableCheck {
  readonly name: string;
  readonly field: string;
  readonly values: readonly Scalar[];
  /** `CONSTRAINT <name> CHECK (<column> IN (…))`, a table constraint of `CREATE TABLE`. */
  readonly definition: string;
}

/** A listed value as an SQL literal: strings quoted for the database, numbers as they are. */
function literal(value: Scalar, dialect: SqlDialectSpec): string {
  return typeof value === 'string' ? dialect.quoteString(value) : String(value);
}

/**
 * The `CHECK`s of a collection's table: `CONSTRAINT "<table>_<field>_check" CHECK ("<field>" IN
 * (…))` for every attribute with `values`, in the order of the attributes. `NULL` passes a CHECK,
 * so a nullable attribute stays nullable.
 *
 * @example
 * ```ts
 * tableChecks(issueSchema, postgres, '')[0]?.definition;
 * // `CONSTRAINT "issues_status_check" CHECK ("status" IN ('open', 'in_progress', 'done'))`
 * ```
 */
export function tableChecks(schema: CollectionSchema, dialect: SqlDialectSpec, prefix: string): TableCheck[] {
  const table = `${prefix}${schema.name}`;
  return schema.attributes
    .filter((attribute) => attribute.values && attribute.values.length > 0 && attribute.name !== 'id')
    .map((attribute) => {
      const values = attribute.values as readonly Scalar[];
      const name = checkName(table, attribute.name);
      const list = values.map((value) => literal(value, dialect)).join(', ');
      return {
        name,
        field: attribute.name,
        values,
        definition: `CONSTRAINT ${dialect.quote(name)} CHECK (${dialect.quote(attribute.name)} IN (${list}))`,
      };
    });
}

/** The identifiers and literals of a CHECK's text, as the catalog writes it back. */
interface ClauseTokens {
  readonly identifiers: Set<string>;
  readonly strings: string[];
  readonly numbers: number[];
}

/** Reads a quoted run starting at `at` (the quote), a doubled quote (and, for MySQL strings, a backslash) escaping. */
function quoted(text: string, at: number, backslashes: boolean): { value: string; end: number } {
  const quote = text[at];
  let value = '';
  let i = at + 1;
  while (i < text.length) {
    const character = text[i] as string;
    if (backslashes && character === '\\' && i + 1 < text.length) {
      value += text[i + 1];
      i += 2;
    } else if (character === quote && text[i + 1] === quote) {
      value += quote;
      i += 2;
    } else if (character === quote) return { value, end: i + 1 };
    else {
      value += character;
      i++;
    }
  }
  return { value, end: i };
}

/** Splits a CHECK's text into identifiers (quoted or bare), string literals and numbers. */
function tokens(clause: string, dialect: SqlDialectSpec): ClauseTokens {
  const found: ClauseTokens = { identifiers: new Set(), strings: [], numbers: [] };
  const backslashes = dialect.name === 'mysql' || dialect.name === 'mariadb';
  let previous = '(';
  for (let i = 0; i < clause.length; ) {
    const character = clause[i] as string;
    if (character === "'") {
      const { value, end } = quoted(clause, i, backslashes);
      found.strings.push(value);
      i = end;
    } else if (character === '"' || character === '`') {
      const { value, end } = quoted(clause, i, false);
      found.identifiers.add(value);
      i = end;
    } else if (/[A-Za-z_$]/.test(character)) {
      const word = /^[\w$]+/.exec(clause.slice(i))?.[0] ?? character;
      found.identifiers.add(word);
      i += word.length;
    } else if (
      /\d/.test(character) ||
      (character === '-' && /\d/.test(clause[i + 1] ?? '') && /[(,[=]/.test(previous))
    ) {
      const number = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(clause.slice(i))?.[0] ?? character;
      found.numbers.push(Number(number));
      i += number.length;
    } else i++;
    if (!/\s/.test(character)) previous = character;
  }
  return found;
}

/** The values a CHECK lists for an attribute of this type, each once, in a comparable form. */
function listed(found: ClauseTokens, attribute: AttributeSchema): string[] {
  const values: Scalar[] =
    attribute.type === 'string'
      ? found.strings
      : [...found.numbers, ...found.strings.map(Number).filter((value) => Number.isFinite(value))];
  return [...new Set(values.map((value) => JSON.stringify(value)))].sort();
}

/**
 * What keeps an existing table's CHECKs from being the store's ({@link tableChecks}): for each
 * attribute with `values`, every CHECK of the table that names its column and lists values of its
 * type must list exactly the declared ones (in any order, under any name), and there must be one;
 * a CHECK of the store's name on a column without `values` is drift too (it refuses what the
 * declaration accepts). A CHECK is compared by the values it lists, not by the rest of its
 * expression; CHECKs on other columns, or listing no value, are not looked at.
 *
 * @example
 * ```ts
 * checksDrift(schema, (await postgres.describeKeys(db, 'issues')).checks, postgres, '');
 * // ['no CHECK ("status" IN (…)) (the store names it "issues_status_check")']
 * ```
 */
export function checksDrift(
  schema: CollectionSchema,
  catalog: readonly CatalogCheck[],
  dialect: SqlDialectSpec,
  prefix: string,
): string[] {
  const table = `${prefix}${schema.name}`;
  const read = catalog.map((check) => ({ ...check, found: tokens(check.clause, dialect) }));
  const drift: string[] = [];
  const show = (values: readonly string[]) => `(${values.map((value) => JSON.parse(value)).join(', ')})`;
  for (const attribute of schema.attributes) {
    if (attribute.name === 'id') continue;
    const name = checkName(table, attribute.name);
    const on = read.filter((check) => check.found.identifiers.has(attribute.name));
    if (!attribute.values || attribute.values.length === 0) {
      const stale = on.find((check) => check.name === name);
      if (stale)
        drift.push(`the CHECK "${name}" limits "${attribute.name}", which is declared without a list of values`);
      continue;
    }
    const wanted = [...new Set(attribute.values.map((value) => JSON.stringify(value)))].sort();
    const listing = on.map((check) => ({ check, values: listed(check.found, attribute) }));
    const relevant = listing.filter((entry) => entry.values.length > 0);
    if (relevant.length === 0) {
      const list = attribute.values.map((value) => literal(value, dialect)).join(', ');
      drift.push(`no CHECK (${dialect.quote(attribute.name)} IN (${list})) (the store names it "${name}")`);
      continue;
    }
    for (const { check, values } of relevant) {
      if (values.length === wanted.length && values.every((value, at) => value === wanted[at])) continue;
      drift.push(
        `the CHECK "${check.name}" on "${attribute.name}" allows ${show(values)} where ${show(wanted)} are declared`,
      );
    }
  }
  return drift;
}
