import type { AttributeSchema, Scalar } from '../schema/types.js';

// Exact sums, shared by every store: a sum is kept as a bigint of the attribute's smallest unit
// (a decimal of scale 2 counts hundredths), so that no float ever rounds it, and written out as
// the wire wants it.

/**
 * A stored integer or canonical decimal as a bigint of its smallest unit: `"12.50"` at scale 2
 * is `1250n`, `7` is `7n`. Text with fewer places than `scale` is padded.
 *
 * @example
 * ```ts
 * scaledOf('-3.05', 2); // -305n
 * scaledOf(42, 0); // 42n
 * ```
 */
export function scaledOf(value: string | number, scale: number): bigint {
  if (typeof value === 'number') return BigInt(value) * 10n ** BigInt(scale);
  const negative = value.startsWith('-');
  const digits = negative ? value.slice(1) : value;
  const dot = digits.indexOf('.');
  const whole = dot < 0 ? digits : digits.slice(0, dot);
  const places = (dot < 0 ? '' : digits.slice(dot + 1)).padEnd(scale, '0').slice(0, scale);
  const scaled = BigInt(`${whole || '0'}${places}`);
  return negative ? -scaled : scaled;
}

/**
 * A sum as the wire answers it: an integer attribute's as a number while it is a safe integer
 * (else its exact decimal text), a decimal attribute's as text with exactly its scale.
 *
 * @example
 * ```ts
 * sumValue(1250n, { name: 'estimate', type: 'decimal', nullable: true, scale: 2 }); // '12.50'
 * sumValue(2n ** 60n, { name: 'points', type: 'integer', nullable: false }); // '1152921504606846976'
 * ```
 */
export function sumValue(sum: bigint, attribute: AttributeSchema): Scalar {
  if (attribute.type !== 'decimal') {
    return sum <= BigInt(Number.MAX_SAFE_INTEGER) && sum >= -BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(sum)
      : String(sum);
  }
  const scale = attribute.scale ?? 0;
  const negative = sum < 0n;
  const digits = String(negative ? -sum : sum).padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}
