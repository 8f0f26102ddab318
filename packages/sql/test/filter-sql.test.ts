import { compareCodePoints } from '@resourcery/core/store';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeLike } from '../src/dialects/shared.js';
import { prefixEnd } from '../src/query/filter-sql.js';

describe('prefixEnd', () => {
  it('increments the last code point, skipping the surrogates and dropping U+10FFFF', () => {
    expect(prefixEnd('ab')).toBe('ac');
    expect(prefixEnd('a😀')).toBe('a😁');
    expect(prefixEnd('a\uD7FF')).toBe('a\uE000');
    expect(prefixEnd('a\uFFFF')).toBe('a\u{10000}');
    expect(prefixEnd('a\u{10FFFF}')).toBe('b');
    expect(prefixEnd('a\u{10FFFF}\u{10FFFF}')).toBe('b');
    expect(prefixEnd('\u{10FFFF}')).toBeUndefined();
    expect(prefixEnd('')).toBeUndefined();
  });

  it('bounds exactly the strings that start with the prefix, in code point order', () => {
    const piece = fc.constantFrom('a', 'b', '\uD7FF', '\uE000', '\uFFFD', '\uFFFF', '😀', '\u{10FFFF}', '');
    const text = fc.array(piece, { maxLength: 4 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(text, text, (prefix, value) => {
        const end = prefixEnd(prefix);
        const inRange =
          compareCodePoints(value, prefix) >= 0 && (end === undefined || compareCodePoints(value, end) < 0);
        expect(inRange).toBe(value.startsWith(prefix));
      }),
    );
  });
});

describe('escapeLike', () => {
  it('escapes the wildcards and the escape character, and nothing else', () => {
    expect(escapeLike('100%_!')).toBe('100!%!_!!');
    expect(escapeLike('a\\b')).toBe('a\\b');
    expect(escapeLike('plain')).toBe('plain');
  });
});
