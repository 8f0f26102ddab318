import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CASE_FOLDING_VERSION } from '../src/store/case-folding-table.js';
import { foldCase, matchesSearch, overlongWord, SEARCH_WORD_MAX, searchWords } from '../src/store/search-words.js';

// The one definition of search words and case folding (docs/search.md), checked against
// Unicode's own CaseFolding.txt (a copy sits in test-data/, the generator's source) and by properties.

const caseFolding = readFileSync(new URL('../test-data/CaseFolding.txt', import.meta.url), 'utf8');

/** The simple folding (C and S) as CaseFolding.txt states it. */
function expectedFolding(): Map<number, number> {
  const table = new Map<number, number>();
  for (const line of caseFolding.split('\n')) {
    const match = /^([0-9A-F]+); ([CS]); ([0-9A-F]+);/.exec(line);
    if (match) table.set(Number.parseInt(match[1] as string, 16), Number.parseInt(match[3] as string, 16));
  }
  return table;
}

/** Letters of several scripts, accents (composed and as marks), case pairs that fold specially, punctuation. */
const pieces = [
  'a',
  'Z',
  'é',
  'e\u0301',
  'Ü',
  'ß',
  'ẞ',
  'Σ',
  'ς',
  'σ',
  'İ',
  'ı',
  'I',
  'i',
  'K',
  'ſ',
  'Ꭰ',
  'ꭰ',
  'Ж',
  'ж',
  '東',
  '京',
  'ا',
  '٣',
  '7',
  'Ⅻ',
  '𝐀',
  '😀',
  '_',
  '-',
  ' ',
  '.',
  "'",
  '\u00a0',
  '\n',
  'ǅ',
  'ǆ',
  'Ǆ',
];
const text = fc.array(fc.constantFrom(...pieces), { maxLength: 20 }).map((parts) => parts.join(''));

describe('foldCase', () => {
  it(`is Unicode ${CASE_FOLDING_VERSION}'s simple case folding, for every code point`, () => {
    expect(caseFolding.startsWith(`# CaseFolding-${CASE_FOLDING_VERSION}.txt`)).toBe(true);
    const table = expectedFolding();
    const wrong: string[] = [];
    for (let point = 0; point <= 0x10ffff; point++) {
      if (point >= 0xd800 && point <= 0xdfff) continue;
      const expected = String.fromCodePoint(table.get(point) ?? point);
      if (foldCase(String.fromCodePoint(point)) !== expected) wrong.push(point.toString(16));
    }
    expect(wrong).toEqual([]);
  });

  it('differs from toLowerCase where case folding does', () => {
    expect(foldCase('ς')).toBe('σ');
    expect(foldCase('ẞ')).toBe('ß');
    expect(foldCase('ꭰ')).toBe('Ꭰ'); // Cherokee folds to the capitals
    expect(foldCase('İ')).toBe('İ'); // simple folding has no mapping for it (no locale)
    expect(foldCase('ſ')).toBe('s');
    expect(foldCase('K')).toBe('k'); // Kelvin sign
  });

  it('keeps the length in code points, and folding twice is folding once', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const folded = foldCase(value);
        expect([...folded].length).toBe([...value].length);
        expect(foldCase(folded)).toBe(folded);
      }),
    );
  });

  it('answers the same for a text and its upper and lower case where those map letter to letter', () => {
    fc.assert(
      fc.property(fc.constantFrom('Straße', 'ΣΊΣΥΦΟΣ', 'Ünïcödé', 'Жёлтый'), (word) => {
        expect(foldCase(word.toUpperCase().replace('SS', 'ß'))).toBe(foldCase(word.toLowerCase()));
      }),
    );
  });
});

describe('searchWords', () => {
  it('splits on everything but letters, digits and their marks; `_` separates', () => {
    expect(searchWords('Crash_on START-up, café! e\u0301t\u00e9 東京 ٣٤ x²')).toEqual([
      'crash',
      'on',
      'start',
      'up',
      'café',
      'été',
      '東京',
      '٣٤',
      'x²',
    ]);
    expect(searchWords(null)).toEqual([]);
    expect(searchWords('  ...__--  ')).toEqual([]);
  });

  it('cuts a word to its first characters, and overlongWord finds it', () => {
    const long = 'Ab'.repeat(SEARCH_WORD_MAX);
    expect(searchWords(long)).toEqual(['ab'.repeat(SEARCH_WORD_MAX / 2)]);
    expect(overlongWord(`ok ${long}`)).toBe(long);
    expect(overlongWord('ok fine')).toBeUndefined();
  });

  it('every word is folded, non-empty and made of letters, digits and marks only', () => {
    fc.assert(
      fc.property(text, (value) => {
        for (const word of searchWords(value)) {
          expect(word).toMatch(/^[\p{L}\p{N}][\p{L}\p{M}\p{N}]*$/u);
          expect(foldCase(word)).toBe(word);
        }
      }),
    );
  });

  it('a text matches each of its own words and their prefixes, in any of its fields', () => {
    fc.assert(
      fc.property(text, text, (value, other) => {
        const words = searchWords(value);
        for (const word of words) {
          const prefix = [...word].slice(0, 2).join('');
          expect(matchesSearch([other, value], [word, prefix])).toBe(true);
        }
      }),
    );
  });

  it('concatenating texts with a separator only adds their words', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(searchWords(`${a} ${b}`)).toEqual([...searchWords(a), ...searchWords(b)]);
      }),
    );
  });
});
