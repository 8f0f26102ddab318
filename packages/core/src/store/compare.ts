import type { Scalar } from '../schema/types.js';

/**
 * Compares strings by Unicode code point, as PostgreSQL's `COLLATE "C"`, MySQL's binary
 * collations and SQLite's default do. JavaScript's `<` compares UTF-16 code units, which puts
 * characters above U+FFFF (stored as surrogates, 0xD800-0xDFFF) before U+E000-U+FFFF; shifting
 * those two ranges restores code point order.
 *
 * @example
 * ```ts
 * ['😀', '\uFFFD', 'é', 'a', 'B'].sort(compareCodePoints); // ['B', 'a', 'é', '\uFFFD', '😀']
 * ```
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return fixup(x) - fixup(y);
  }
  return a.length - b.length;
}

function fixup(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/**
 * Orders two stored values as every store must: `null` first, numbers numerically, `false`
 * before `true`, strings by code point.
 *
 * @example
 * ```ts
 * [3, null, 1].sort(compareScalars); // [null, 1, 3]
 * ```
 */
export function compareScalars(a: Scalar, b: Scalar): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a ? 1 : -1;
  return compareCodePoints(String(a), String(b));
}

/**
 * Orders two canonical decimals of the same scale numerically (as `compareDecimals`, without
 * allocating): canonical text has no leading zeros and no `-0`, so the sign decides first, then
 * the length (the number of integer digits), then the text itself.
 *
 * @example
 * ```ts
 * ['10.00', '-1.50', '9.99', '-10.00'].sort(compareDecimalText); // ['-10.00', '-1.50', '9.99', '10.00']
 * ```
 */
export function compareDecimalText(a: string, b: string): number {
  const negative = a.charCodeAt(0) === 45;
  if (negative !== (b.charCodeAt(0) === 45)) return negative ? -1 : 1;
  const magnitude = a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
  // `0 - magnitude`, not `-magnitude`: two equal negatives compare as 0, never as -0.
  return negative ? 0 - magnitude : magnitude;
}

/**
 * {@link compareScalars} for the values of a `decimal` attribute: `null` first, then numerically.
 *
 * @example
 * ```ts
 * ['100.00', null, '9.99'].sort(compareDecimalScalars); // [null, '9.99', '100.00']
 * ```
 */
export function compareDecimalScalars(a: Scalar, b: Scalar): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return compareDecimalText(String(a), String(b));
}
