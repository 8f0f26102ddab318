// The canonical forms of the text-based types: every store holds and answers exactly these, so
// they must be total (never throw), stable (canonical in, same out) and exact (no rounding).
import {
  canonicalDate,
  canonicalDateTime,
  canonicalDecimal,
  canonicalUuid,
  compareDecimals,
} from '@resourcery/core/store';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const MIN = new Date('0001-01-01T00:00:00Z').getTime();
const MAX = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

describe('canonicalDateTime', () => {
  it('answers any instant of years 1..9999 sent with any offset as the same UTC text', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MIN + 86_400_000, max: MAX - 86_400_000 }),
        fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
        (millis, offset) => {
          const utc = new Date(millis).toISOString();
          const local = new Date(millis + offset * 60_000).toISOString().slice(0, 23);
          const sign = offset < 0 ? '-' : '+';
          const zone = `${sign}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0')}:${String(Math.abs(offset) % 60).padStart(2, '0')}`;
          expect(canonicalDateTime(`${local}${zone}`)).toBe(utc);
          expect(canonicalDateTime(utc)).toBe(utc);
        },
      ),
    );
  });

  it('cuts extra fraction digits and refuses what RFC 3339 does not allow', () => {
    expect(canonicalDateTime('2024-05-01T12:00:00.123999Z')).toBe('2024-05-01T12:00:00.123Z');
    expect(canonicalDateTime('2024-05-01t12:00:00z')).toBe('2024-05-01T12:00:00.000Z');
    expect(canonicalDateTime('2024-05-01T12:00:00.5-01:30')).toBe('2024-05-01T13:30:00.500Z');
    for (const bad of [
      '2024-02-30T00:00:00Z',
      '2024-05-01',
      '2024-05-01T24:00:00Z',
      '2024-05-01T12:00:60Z',
      '2024-05-01 12:00:00Z',
      '2024-05-01T12:00:00',
      '2024-05-01T12:00:00+24:00',
      '0000-01-01T00:00:00Z',
      '+002024-05-01T12:00:00Z',
    ]) {
      expect(canonicalDateTime(bad), bad).toBeUndefined();
    }
  });

  it('never throws', () => {
    fc.assert(fc.property(fc.string(), (text) => void canonicalDateTime(text)));
  });
});

describe('canonicalDate and canonicalUuid', () => {
  it('accept real dates only', () => {
    expect(canonicalDate('2024-02-29')).toBe('2024-02-29');
    for (const bad of ['2023-02-29', '2024-13-01', '2024-1-01', '0000-01-01', '2024-05-01T00:00:00Z'])
      expect(canonicalDate(bad)).toBeUndefined();
  });

  it('lowercases uuids and refuses anything else', () => {
    expect(canonicalUuid('3F2504E0-4F89-11D3-9A0C-0305E82C3301')).toBe('3f2504e0-4f89-11d3-9a0c-0305e82c3301');
    for (const bad of ['3f2504e04f8911d39a0c0305e82c3301', '{3f2504e0-4f89-11d3-9a0c-0305e82c3301}', 'x'.repeat(36)])
      expect(canonicalUuid(bad)).toBeUndefined();
  });
});

describe('canonicalDecimal', () => {
  const places = (scale: number) =>
    fc.bigInt({ min: -(10n ** 15n) + 1n, max: 10n ** 15n - 1n }).map((units) => ({ units, scale }));
  const text = ({ units, scale }: { units: bigint; scale: number }) => {
    const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
    const whole = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    return units < 0n ? `-${whole}` : whole;
  };

  it('keeps every value of at most 15 digits exactly, with exactly the declared places', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }).chain(places), (value) => {
        const canonical = text(value);
        expect(canonicalDecimal(canonical, value.scale, 15)).toEqual({ value: canonical });
      }),
    );
  });

  it('pads, accepts JSON numbers, and never rounds', () => {
    expect(canonicalDecimal(12.5, 2, 15)).toEqual({ value: '12.50' });
    expect(canonicalDecimal('10', 2, 15)).toEqual({ value: '10.00' });
    expect(canonicalDecimal('-0.00', 2, 15)).toEqual({ value: '0.00' });
    expect(canonicalDecimal('007.10', 2, 15)).toEqual({ value: '7.10' });
    expect(canonicalDecimal('1.234', 2, 15)).toEqual({ problem: 'too-many-places' });
    expect(canonicalDecimal(0.1 + 0.2, 2, 15)).toEqual({ problem: 'too-many-places' });
    expect(canonicalDecimal('1.230', 2, 15)).toEqual({ value: '1.23' });
    expect(canonicalDecimal('12345678901234', 2, 15)).toEqual({ problem: 'too-many-digits' });
    // A number is its shortest text, exponent forms included: 1e21 is a decimal, only too long.
    expect(canonicalDecimal(1e21, 2, 15)).toEqual({ problem: 'too-many-digits' });
    expect(canonicalDecimal(1e-7, 2, 15)).toEqual({ problem: 'too-many-places' });
    expect(canonicalDecimal(1.5e1, 2, 15)).toEqual({ value: '15.00' });
    expect(canonicalDecimal(Number.POSITIVE_INFINITY, 2, 15)).toEqual({ problem: 'not-decimal' });
    for (const bad of ['', '.5', '5.', '1e3', '+1', ' 1', '1,5', 'NaN'])
      expect(canonicalDecimal(bad, 2, 15)).toEqual({ problem: 'not-decimal' });
  });

  it('orders numerically, as compareDecimals says', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { minLength: 2, maxLength: 20 }),
        (cents) => {
          const values = cents.map((c) => canonicalDecimal((c / 100).toFixed(2), 2, 15).value as string);
          const sorted = [...values].sort(compareDecimals).map(Number);
          expect(sorted).toEqual([...cents].sort((a, b) => a - b).map((c) => c / 100));
        },
      ),
    );
  });
});
