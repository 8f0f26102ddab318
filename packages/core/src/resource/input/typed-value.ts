import { echo } from '../../errors/echo.js';
import { convertValue, isStorableString, MAX_PRECISION } from '../../schema/convert.js';
import type { AttributeSchema, StoredValue } from '../../schema/types.js';
import { canonicalDecimal, canonicalDecimalNumber } from '../../schema/values.js';
import { SentNumbers } from './sent-numbers.js';

/** Whether a JSON value is an object, not an array or `null`. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What a JSON value holds: a string no store can keep, keys included (see `isStorableString`),
 * else whether it holds a number (judged on its text then), else nothing of note.
 */
function scanJson(value: unknown): 'unstorable' | 'numbers' | 'plain' {
  if (typeof value === 'string') return isStorableString(value) ? 'plain' : 'unstorable';
  if (typeof value === 'number') return 'numbers';
  if (typeof value !== 'object' || value === null) return 'plain';
  let found: 'numbers' | 'plain' = 'plain';
  for (const [key, member] of Object.entries(value)) {
    const inside = isStorableString(key) ? scanJson(member) : 'unstorable';
    if (inside === 'unstorable') return inside;
    if (inside === 'numbers') found = inside;
  }
  return found;
}

const DECIMAL_PROBLEMS = {
  'not-decimal': 'must be a decimal number',
  'too-many-places': (scale: number) => `must have at most ${scale} decimal places`,
  'too-many-digits': (scale: number, precision: number) =>
    `must have at most ${precision - scale} digits before the decimal point`,
};

/**
 * The value to store for a JSON value of the attribute's type (canonical for the text-based
 * types), or the message saying what is wrong with it. A number in a decimal or json attribute
 * is judged on the text the client wrote (`sent`): more places than declared is refused, never
 * rounded, and a json value holding a number a double cannot keep is refused, never changed.
 *
 * @example
 * ```ts
 * typed({ name: 'price', type: 'decimal', nullable: true, scale: 2 }, 12.5, sent); // { value: '12.50' }
 * ```
 */
export function typed(
  attribute: AttributeSchema,
  value: unknown,
  sent: SentNumbers,
): { value: StoredValue } | { error: string } {
  const { type } = attribute;
  switch (type) {
    case 'string':
    case 'boolean':
    case 'integer':
    case 'number': {
      const ok =
        type === 'integer'
          ? Number.isSafeInteger(value)
          : type === 'number'
            ? typeof value === 'number' && Number.isFinite(value)
            : typeof value === type;
      return ok ? { value: value as StoredValue } : { error: `must be ${article(type)}` };
    }
    case 'decimal': {
      const scale = attribute.scale ?? 0;
      const precision = attribute.precision ?? MAX_PRECISION;
      if (typeof value !== 'string' && typeof value !== 'number') return { error: DECIMAL_PROBLEMS['not-decimal'] };
      // A number is judged on the text the client wrote: 19.999999999999999 is not the double 20.
      const text = typeof value === 'number' ? sent.numberText(attribute.name) : undefined;
      const result =
        text === undefined ? canonicalDecimal(value, scale, precision) : canonicalDecimalNumber(text, scale, precision);
      if (result.value !== undefined) return { value: result.value };
      const problem = DECIMAL_PROBLEMS[result.problem];
      return { error: typeof problem === 'string' ? problem : problem(scale, precision) };
    }
    case 'json': {
      if (!isPlainObject(value)) return { error: 'must be a JSON object' };
      const holds = scanJson(value);
      if (holds === 'unstorable') return { error: 'must not contain malformed Unicode or NUL characters' };
      const inexact = holds === 'numbers' ? sent.inexactNumber(attribute.name, value) : undefined;
      if (inexact === undefined) return { value };
      return { error: `has a number a double cannot keep exactly: ${echo(inexact, 40)} (send it as a string)` };
    }
    default: {
      const canonical = typeof value === 'string' ? convertValue(attribute, value) : undefined;
      if (canonical !== undefined) return { value: canonical };
      const expected = { 'date-time': 'an RFC 3339 date-time', date: 'a date (YYYY-MM-DD)', uuid: 'a uuid' }[type];
      return { error: `must be ${expected}` };
    }
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** No text sent beside the values: numbers are judged as the doubles they are. */
const NO_TEXT = new SentNumbers(undefined, undefined);

/**
 * The stored form of a JSON value for an attribute, or `undefined` when the attribute cannot
 * hold it: to compare a value a body sends with the one stored.
 *
 * @example
 * ```ts
 * canonicalValue({ name: 'price', type: 'decimal', nullable: true, scale: 2 }, 12.5); // '12.50'
 * ```
 */
export function canonicalValue(attribute: AttributeSchema, value: unknown): StoredValue | undefined {
  const result = typed(attribute, value, NO_TEXT);
  return 'value' in result ? result.value : undefined;
}
