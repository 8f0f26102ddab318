import type { AttributeSchema, AttributeType, Id, Scalar } from './types.js';
import { canonicalDate, canonicalDateTime, canonicalDecimal, canonicalUuid } from './values.js';

const INTEGER = /^(0|-?[1-9][0-9]*)$/;
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const ID = /^[1-9][0-9]*$/;

/**
 * Converts a query-string value to an attribute's type and canonical form, or answers
 * `undefined` when it does not convert: integers in plain decimal within the safe range, finite
 * decimal numbers, `true`/`false`, strings taken literally, RFC 3339 date-times (to UTC with
 * milliseconds), `YYYY-MM-DD` dates, decimals of at most the declared places (to exactly
 * that many) and uuids (to lowercase). A `json` attribute takes no query value.
 *
 * @example
 * ```ts
 * convertValue({ name: 'year', type: 'integer', nullable: true }, '7'); // 7
 * convertValue({ name: 'year', type: 'integer', nullable: true }, '1e3'); // undefined
 * convertValue({ name: 'price', type: 'decimal', nullable: true, scale: 2 }, '10'); // '10.00'
 * ```
 */
export function convertValue(
  attribute: Pick<AttributeSchema, 'type' | 'scale' | 'precision'>,
  raw: string,
): Scalar | undefined {
  const type: AttributeType = attribute.type;
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
    case 'date-time':
      return canonicalDateTime(raw);
    case 'date':
      return canonicalDate(raw);
    case 'uuid':
      return canonicalUuid(raw);
    case 'decimal':
      return canonicalDecimal(raw, attribute.scale ?? 0, attribute.precision ?? MAX_PRECISION).value;
    case 'json':
      return undefined;
  }
}

/**
 * The most digits a decimal may have: 15 fit exactly in every store (SQLite keeps a scaled
 * integer, within JavaScript's safe integers).
 *
 * @example
 * ```ts
 * canonicalDecimal('1234567890123.45', 2, MAX_PRECISION); // { value: '1234567890123.45' }
 * ```
 */
export const MAX_PRECISION = 15;

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
 * Parses a path id: for integer ids a positive integer in plain decimal within the safe range,
 * for uuid ids a uuid (answered lowercase); else `undefined` (the API then answers 404, as for
 * an id that does not exist).
 *
 * @example
 * ```ts
 * parseId('42'); // 42
 * parseId('0'); parseId('-1'); parseId('1.5'); parseId('abc'); // undefined
 * parseId('3F2504E0-4F89-11D3-9A0C-0305E82C3301', 'uuid'); // '3f2504e0-4f89-11d3-9a0c-0305e82c3301'
 * ```
 */
export function parseId(raw: string, type: 'integer' | 'uuid' = 'integer'): Id | undefined {
  if (type === 'uuid') return canonicalUuid(raw);
  if (!ID.test(raw)) return undefined;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : undefined;
}
