// The number-text rule: a JSON number is judged on the text the client wrote. A decimal keeps it
// exactly or refuses it (more places than declared, too many digits), and a json value keeps
// only numbers a double keeps exactly. The oracle here is exact rational arithmetic on BigInt.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isExactDouble } from '../src/schema/number-text.js';
import { canonicalDecimal, canonicalDecimalNumber } from '../src/schema/values.js';

/** A JSON number text's exact value: `mantissa × 10^exponent`. */
interface Rational {
  readonly mantissa: bigint;
  readonly exponent: number;
}

function rational(text: string): Rational {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) throw new Error(`not a JSON number: ${text}`);
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const mantissa = BigInt(`${sign}${whole}${fraction}`);
  return { mantissa, exponent: Number(exponent) - fraction.length };
}

function equal(a: Rational, b: Rational): boolean {
  const low = Math.min(a.exponent, b.exponent);
  return a.mantissa * 10n ** BigInt(a.exponent - low) === b.mantissa * 10n ** BigInt(b.exponent - low);
}

/** The oracle of `isExactDouble`: the text's value is the value of the double's shortest text. */
function keptExactly(text: string): boolean {
  const double = Number(text);
  return Number.isFinite(double) && equal(rational(text), rational(String(double)));
}

/** The oracle of a decimal of `scale` places and `precision` digits: the canonical text or the problem. */
function decimalOf(text: string, scale: number, precision: number): { value: string } | { problem: string } {
  let { mantissa, exponent } = rational(text);
  while (mantissa !== 0n && mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent += 1;
  }
  if (mantissa === 0n) exponent = 0;
  if (-exponent > scale) return { problem: 'too-many-places' };
  const scaled = mantissa * 10n ** BigInt(exponent + scale); // the value × 10^scale, an integer
  const magnitude = scaled < 0n ? -scaled : scaled;
  const integer = magnitude / 10n ** BigInt(scale);
  if ((integer === 0n ? 0 : String(integer).length) + scale > precision) return { problem: 'too-many-digits' };
  const digits = String(magnitude).padStart(scale + 1, '0');
  const body = scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return { value: `${scaled < 0n ? '-' : ''}${body}` };
}

const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
/** Any JSON number text: any sign, leading digits, fraction, exponent form, sizes from tiny to huge. */
const numberText = fc
  .tuple(
    fc.constantFrom('', '-'),
    fc.oneof(
      fc.constant('0'),
      fc.tuple(fc.stringMatching(/^[1-9]$/), digits(0, 24)).map(([a, b]) => a + b),
    ),
    fc.option(digits(1, 24), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 400 })), {
      nil: undefined,
    }),
  )
  .map(
    ([sign, whole, fraction, exponent]) =>
      `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent ? exponent.join('') : ''}`,
  );
/**
 * The same number written another way: the point moved `shift` digits (into the exponent), then
 * `zeros` trailing zeros after it.
 */
function rewritten(text: string, zeros: number, shift: number): string {
  const { mantissa, exponent } = rational(text);
  const sign = mantissa < 0n ? '-' : '';
  const magnitude = String(mantissa < 0n ? -mantissa : mantissa);
  if (magnitude === '0') return `${sign}0${zeros > 0 ? `.${'0'.repeat(zeros)}` : ''}e${shift}`;
  if (shift >= 0) {
    const fraction = zeros > 0 ? `.${'0'.repeat(zeros)}` : '';
    return `${sign}${magnitude}${'0'.repeat(shift)}${fraction}e${exponent - shift}`;
  }
  const moved = Math.min(-shift, magnitude.length - 1);
  const whole = magnitude.slice(0, magnitude.length - moved);
  const fraction = magnitude.slice(magnitude.length - moved) + '0'.repeat(zeros);
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}e${exponent + moved}`;
}

describe('isExactDouble: a double keeps the number its text means', () => {
  it('agrees with exact arithmetic on any JSON number text', () => {
    fc.assert(
      fc.property(numberText, (text) => {
        expect(isExactDouble(text), text).toBe(keptExactly(text));
      }),
    );
  });

  it('keeps every finite double however it is written (shortest text, trailing zeros, exponent form)', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.nat(5),
        fc.integer({ min: -5, max: 5 }),
        (double, zeros, shift) => {
          const text = String(double);
          expect(isExactDouble(text), text).toBe(true);
          expect(isExactDouble(rewritten(text, zeros, shift)), rewritten(text, zeros, shift)).toBe(true);
        },
      ),
    );
  });

  it('keeps every number of at most 15 digits without exponent (what lets most bodies skip the second reading)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('', '-'),
        fc.oneof(
          fc.constant('0'),
          fc.tuple(fc.stringMatching(/^[1-9]$/), digits(0, 14)).map(([a, b]) => a + b),
        ),
        digits(0, 14),
        (sign, whole, fraction) => {
          const places = fraction.slice(0, Math.max(0, 15 - whole.length));
          const text = `${sign}${whole}${places ? `.${places}` : ''}`;
          expect(isExactDouble(text), text).toBe(true);
          expect(canonicalDecimalNumber(text, 6, 15), text).toEqual(canonicalDecimal(Number(text), 6, 15));
        },
      ),
    );
  });

  it('refuses a number of 18 significant digits or more: no double has that shortest text', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[1-9]$/),
        digits(16, 30),
        fc.stringMatching(/^[1-9]$/),
        fc.integer({ min: -300, max: 300 }),
        (first, middle, end, exponent) => {
          const text = `${first}.${middle}${end}e${exponent}`;
          expect(isExactDouble(text), text).toBe(false);
        },
      ),
    );
  });

  it('decides the examples: overflow, underflow, long integers, -0 and exponent forms', () => {
    for (const refused of ['1e400', '-1e400', '1e-400', '12345678901234567890', '0.1000000000000000055511151231257827'])
      expect(isExactDouble(refused), refused).toBe(false);
    for (const kept of ['0.1', '1e2', '1E+2', '1.50', '-0', '0e5', '-0.0e-3', '9007199254740992', '5e-324', '1e308'])
      expect(isExactDouble(kept), kept).toBe(true);
    expect(isExactDouble('9007199254740993')).toBe(false);
  });
});

describe('a decimal given as a JSON number is its text, never the double', () => {
  it('agrees with exact arithmetic: the value, or too many places, or too many digits', () => {
    fc.assert(
      fc.property(numberText, fc.integer({ min: 0, max: 6 }), (text, scale) => {
        expect(canonicalDecimalNumber(text, scale, 15), `${text} (${scale} places)`).toEqual(
          decimalOf(text, scale, 15),
        );
      }),
    );
  });

  it('says of a number what it says of the same digits sent as a string', () => {
    fc.assert(
      fc.property(
        digits(1, 16),
        fc.option(digits(1, 6), { nil: undefined }),
        fc.boolean(),
        (whole, fraction, minus) => {
          const text = `${minus ? '-' : ''}${whole.replace(/^0+(?=\d)/, '')}${fraction ? `.${fraction}` : ''}`;
          expect(canonicalDecimalNumber(text, 2, 15)).toEqual(canonicalDecimal(text, 2, 15));
        },
      ),
    );
  });

  it('decides the examples of the issue', () => {
    expect(canonicalDecimalNumber('19.999999999999999', 2, 15)).toEqual({ problem: 'too-many-places' });
    expect(canonicalDecimalNumber('1234567890123.45', 2, 15)).toEqual({ value: '1234567890123.45' });
    expect(canonicalDecimalNumber('125E-2', 2, 15)).toEqual({ value: '1.25' });
    expect(canonicalDecimalNumber('1.5e1', 2, 15)).toEqual({ value: '15.00' });
    expect(canonicalDecimalNumber('-0', 2, 15)).toEqual({ value: '0.00' });
    expect(canonicalDecimalNumber('1e-400', 2, 15)).toEqual({ problem: 'too-many-places' });
    expect(canonicalDecimalNumber('1e400', 2, 15)).toEqual({ problem: 'too-many-digits' });
    expect(canonicalDecimalNumber('1e999999999999999999999', 2, 15)).toEqual({ problem: 'too-many-digits' });
    expect(canonicalDecimalNumber('1.00e-2', 2, 15)).toEqual({ value: '0.01' });
  });
});
