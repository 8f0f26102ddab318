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
