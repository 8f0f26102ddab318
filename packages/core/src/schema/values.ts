import { plainDecimalText } from './number-text.js';

// The canonical forms of the text-based types: what every store holds and answers, so that
// equality is string equality and (but for decimals) order is code point order.

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/** Milliseconds since 1970 of a valid calendar date and time, or `undefined` (no Feb 30, no 24:00). */
function utcMillis(year: number, month: number, day: number, hours = 0, minutes = 0, seconds = 0): number | undefined {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hours, minutes, seconds, 0);
  const valid =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hours &&
    date.getUTCMinutes() === minutes &&
    date.getUTCSeconds() === seconds;
  return valid ? date.getTime() : undefined;
}

/** A year 1..9999 keeps the canonical text fixed-width, so that text order is time order. */
function inRange(millis: number): boolean {
  const year = new Date(millis).getUTCFullYear();
  return year >= 1 && year <= 9999;
}

/**
 * An RFC 3339 date-time in its canonical form, UTC with milliseconds, or `undefined`. Extra
 * fraction digits are cut (never rounded up into the next millisecond); a leap second (`:60`) is
 * refused, as every database does.
 *
 * @example
 * ```ts
 * canonicalDateTime('2024-05-01T14:00:00+02:00'); // '2024-05-01T12:00:00.000Z'
 * canonicalDateTime('2024-02-30T00:00:00Z'); // undefined
 * ```
 */
export function canonicalDateTime(raw: string): string | undefined {
  const match = DATE_TIME.exec(raw);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction, zone, sign, zh, zm] = match;
  const local = utcMillis(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s));
  if (local === undefined) return undefined;
  let offset = 0;
  if (zone !== 'Z' && zone !== 'z') {
    if (Number(zh) > 23 || Number(zm) > 59) return undefined;
    offset = (sign === '-' ? -1 : 1) * (Number(zh) * 60 + Number(zm)) * 60_000;
  }
  const millis = local - offset + Number(`${(fraction ?? '.0').slice(1)}00`.slice(0, 3));
  return inRange(millis) ? new Date(millis).toISOString() : undefined;
}

/**
 * A calendar date `YYYY-MM-DD` (years 0001 to 9999), or `undefined`.
 *
 * @example
 * ```ts
 * canonicalDate('2024-02-29'); // '2024-02-29'
 * canonicalDate('2023-02-29'); // undefined
 * ```
 */
export function canonicalDate(raw: string): string | undefined {
  const match = DATE.exec(raw);
  if (!match) return undefined;
  const millis = utcMillis(Number(match[1]), Number(match[2]), Number(match[3]));
  return millis !== undefined && inRange(millis) ? raw : undefined;
}

/**
 * A uuid in lowercase canonical form, or `undefined`.
 *
 * @example
 * ```ts
 * canonicalUuid('3F2504E0-4F89-11D3-9A0C-0305E82C3301'); // '3f2504e0-4f89-11d3-9a0c-0305e82c3301'
 * ```
 */
export function canonicalUuid(raw: string): string | undefined {
  return UUID.test(raw) ? raw.toLowerCase() : undefined;
}

/** Why a value is not a decimal of the declared size. */
export type DecimalProblem = 'not-decimal' | 'too-many-places' | 'too-many-digits';

/**
 * A decimal with exactly `scale` places (`"12.50"`), from a string or a JSON number with at
 * most that many places and at most `precision` digits in all; else the problem. No value is
 * ever rounded, and none goes through floating point once it is text. A string is a plain
 * decimal (`"12.5"`, not `"1.25e1"`); a number is judged on its shortest text (`1.25e1` is
 * `12.5`): give {@link canonicalDecimalNumber} the text the client wrote when it is known.
 *
 * @example
 * ```ts
 * canonicalDecimal(12.5, 2, 15); // { value: '12.50' }
 * canonicalDecimal('1.234', 2, 15); // { problem: 'too-many-places' }
 * ```
 */
export function canonicalDecimal(
  raw: string | number,
  scale: number,
  precision: number,
): { value: string; problem?: undefined } | { value?: undefined; problem: DecimalProblem } {
  if (typeof raw === 'number') {
    return Number.isFinite(raw) ? canonicalDecimalNumber(String(raw), scale, precision) : { problem: 'not-decimal' };
  }
  const match = DECIMAL.exec(raw);
  if (!match) return { problem: 'not-decimal' };
  const [, minus, whole = '', fraction = ''] = match;
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > scale) return { problem: 'too-many-places' };
  const integer = whole.replace(/^0+(?=\d)/, '');
  if ((integer === '0' ? 0 : integer.length) + scale > precision) return { problem: 'too-many-digits' };
  const places = trimmed.padEnd(scale, '0');
  const zero = /^0$/.test(integer) && /^0*$/.test(places);
  return { value: `${minus && !zero ? '-' : ''}${integer}${scale > 0 ? `.${places}` : ''}` };
}

/**
 * A decimal with exactly `scale` places from the text of a JSON number as the client wrote it
 * (`19.99`, `1.5e1`, `-0`), judged on that text: `19.999999999999999` has too many places for 2
 * though a double makes it 20, and `1234567890123.45` is kept digit for digit.
 *
 * @example
 * ```ts
 * canonicalDecimalNumber('1.5e1', 2, 15); // { value: '15.00' }
 * canonicalDecimalNumber('19.999999999999999', 2, 15); // { problem: 'too-many-places' }
 * ```
 */
export function canonicalDecimalNumber(
  text: string,
  scale: number,
  precision: number,
): { value: string; problem?: undefined } | { value?: undefined; problem: DecimalProblem } {
  const plain = plainDecimalText(text, scale, precision);
  return plain.text === undefined ? { problem: plain.problem } : canonicalDecimal(plain.text, scale, precision);
}

/**
 * Orders two canonical decimals of the same scale numerically.
 *
 * @example
 * ```ts
 * ['10.00', '-1.50', '9.99'].sort(compareDecimals); // ['-1.50', '9.99', '10.00']
 * ```
 */
export function compareDecimals(a: string, b: string): number {
  const x = BigInt(a.replace('.', ''));
  const y = BigInt(b.replace('.', ''));
  return x < y ? -1 : x > y ? 1 : 0;
}
