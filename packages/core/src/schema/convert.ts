import type { AttributeType, Scalar } from './types.js';

const INTEGER = /^(0|-?[1-9][0-9]*)$/;
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const ID = /^[1-9][0-9]*$/;

/**
 * Converts a query-string value to an attribute's type, or answers `undefined` when it does
 * not convert: integers in plain decimal within the safe range, finite decimal numbers,
 * `true`/`false`, and strings taken literally.
 *
 * @example
 * ```ts
 * convertValue('integer', '7'); // 7
 * convertValue('integer', '1e3'); // undefined
 * convertValue('string', '"quoted"'); // '"quoted"'
 * ```
 */
export function convertValue(type: AttributeType, raw: string): Scalar | undefined {
  switch (type) {
    case 'string':
      return isStorableString(raw) ? raw : undefined;
    case 'integer': {
      const value = Number(raw);
      return INTEGER.test(raw) && Number.isSafeInteger(value) ? value : undefined;
    }
    case 'number': {
      const value = Number(raw);
      return NUMBER.test(raw) && Number.isFinite(value) ? value : undefined;
    }
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : undefined;
  }
}

/**
 * Whether every store can hold this string: well-formed Unicode (no lone surrogate) and no NUL
 * character, which PostgreSQL's text type refuses. The same rule applies in every store so that
 * they all give the same answer.
 *
 * @example
 * ```ts
 * isStorableString('Dune'); // true
 * isStorableString('a\u0000b'); // false
 * ```
 */
export function isStorableString(value: string): boolean {
  return value.isWellFormed() && !value.includes('\u0000');
}

/**
 * Parses a path id: a positive integer in plain decimal within the safe range, else `undefined`
 * (the API then answers 404, as for an id that does not exist).
 *
 * @example
 * ```ts
 * parseId('42'); // 42
 * parseId('0'); parseId('-1'); parseId('1.5'); parseId('abc'); // undefined
 * ```
 */
export function parseId(raw: string): number | undefined {
  if (!ID.test(raw)) return undefined;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : undefined;
}
