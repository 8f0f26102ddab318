// JSON numbers judged on the text the client wrote, not on the double `JSON.parse` makes of it:
// `19.999999999999999` is a number with 15 places (the double is 20), `1e400` is a number (the
// double is Infinity).
import { splitNumber } from 'lossless-json';

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Whether a double keeps the number a JSON number text means exactly: its decimal value is the
 * value of the double's shortest text (`String(Number(text))`). `0.1`, `1e2`, `1.50`, `-0` and
 * `9007199254740992` are kept; `1e400` (Infinity), `1e-400` (0), `12345678901234567890` and
 * `0.1000000000000000055511151231257827` (both a nearby double) are not. `-0` counts as kept: its
 * value is zero, and JSON writes the double −0 as `0`. A text that is no JSON number is not kept.
 *
 * @example
 * ```ts
 * isExactDouble('0.1'); // true
 * isExactDouble('12345678901234567890'); // false
 * ```
 */
export function isExactDouble(text: string): boolean {
  if (!JSON_NUMBER.test(text)) return false;
  const double = Number(text);
  if (!Number.isFinite(double)) return false;
  const shortest = String(double);
  if (shortest === text) return true; // most numbers are written the shortest way (412, 1.5)
  const sent = splitNumber(text);
  const kept = splitNumber(shortest);
  return sent.sign === kept.sign && sent.digits === kept.digits && sent.exponent === kept.exponent;
}

/** Why a number text is not a decimal of the declared size. */
export type NumberTextProblem = 'not-decimal' | 'too-many-places' | 'too-many-digits';

/**
 * A JSON number text (`19.99`, `1.5e1`, `-0`) written as a plain decimal (`19.99`, `15`, `-0`),
 * or the problem when it has more than `scale` places or more than `precision - scale` integer
 * digits: judged before any digit is written, so `1e999999999` costs no more than `1`.
 *
 * @example
 * ```ts
 * plainDecimalText('125e-2', 2, 15); // { text: '1.25' }
 * plainDecimalText('19.999999999999999', 2, 15); // { problem: 'too-many-places' }
 * ```
 */
export function plainDecimalText(
  text: string,
  scale: number,
  precision: number,
): { text: string; problem?: undefined } | { text?: undefined; problem: NumberTextProblem } {
  if (!JSON_NUMBER.test(text)) return { problem: 'not-decimal' };
  if (!/[eE]/.test(text)) return { text };
  // The value is digits[0].digits[1..] × 10^exponent, without leading or trailing zeros.
  const { sign, digits, exponent } = splitNumber(text);
  if (digits === '0') return { text: '0' };
  const places = digits.length - 1 - exponent;
  if (places > scale) return { problem: 'too-many-places' };
  if (Math.max(exponent + 1, 0) + scale > precision) return { problem: 'too-many-digits' };
  const plain =
    exponent < 0
      ? `0.${'0'.repeat(-exponent - 1)}${digits}`
      : places > 0
        ? `${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`
        : digits.padEnd(exponent + 1, '0');
  return { text: `${sign}${plain}` };
}
