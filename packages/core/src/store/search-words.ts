import { CASE_FOLDING_RUNS } from './case-folding-table.js';

// The one definition of the words of `q=` search (CONTRACT part 4), shared by the core (which
// folds the words of `q`) and every store (which folds the words of the searchable fields):
// the same function on both sides, so that memory and the SQL stores cannot disagree.

/**
 * The most characters of a word that count: a word of `q` may have at most this many (else 400),
 * and stores index the first this many of each word.
 *
 * @example
 * ```ts
 * searchWords('x'.repeat(150))[0]?.length; // SEARCH_WORD_MAX
 * ```
 */
export const SEARCH_WORD_MAX = 100;

/**
 * The most words a `q` may have (else 400).
 *
 * @example
 * ```ts
 * if (searchWords(q).length > SEARCH_WORDS_MAX) throw new Error('too many words');
 * ```
 */
export const SEARCH_WORDS_MAX = 20;

let folding: Map<number, number> | undefined;

/** The simple case folding of CaseFolding.txt (C and S), built from the generated runs on first use. */
function foldingTable(): Map<number, number> {
  if (folding) return folding;
  folding = new Map();
  for (const run of CASE_FOLDING_RUNS.split(';')) {
    if (run === '') continue;
    const [start, length, step, delta] = run.split(',').map((part) => Number.parseInt(part, 36)) as [
      number,
      number,
      number,
      number,
    ];
    for (let i = 0; i < length; i++) folding.set(start + i * step, start + i * step + delta);
  }
  return folding;
}

/**
 * Unicode *simple* case folding (CaseFolding.txt, statuses C and S): each code point is replaced
 * by its folded code point, so the length in code points never changes. Not locale-bound (no
 * Turkish dotless i) and unlike `toLowerCase`: `ς` folds to `σ`, `ẞ` to `ß`, Cherokee small
 * letters to the capitals, `İ` stays as it is.
 *
 * @example
 * ```ts
 * foldCase('ΣΊΣΥΦΟΣ'); // 'σίσυφοσ'
 * foldCase('Straße'); // 'straße'
 * ```
 */
export function foldCase(text: string): string {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  if (ascii) return text.toLowerCase();
  const table = foldingTable();
  let folded = '';
  for (const character of text) {
    const point = character.codePointAt(0) as number;
    const mapped = table.get(point);
    folded += mapped === undefined ? character : String.fromCodePoint(mapped);
  }
  return folded;
}

/**
 * A word: a letter or digit, then letters, digits and the combining marks that belong to them
 * (so that an accent written as a separate mark stays part of its letter's word).
 */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;

/**
 * The search words of a text: its runs of Unicode letters and digits (with their combining
 * marks), after NFC normalization, each case-folded ({@link foldCase}) and cut to its first
 * {@link SEARCH_WORD_MAX} code points; `_`, spaces and punctuation separate words. In order,
 * repeats kept. `null` has none.
 *
 * @example
 * ```ts
 * searchWords('Crash_on START-up, café!'); // ['crash', 'on', 'start', 'up', 'café']
 * ```
 */
export function searchWords(text: string | null | undefined): string[] {
  if (!text) return [];
  const words: string[] = [];
  for (const [word] of text.normalize('NFC').matchAll(WORD)) {
    const folded = foldCase(word);
    words.push(folded.length > SEARCH_WORD_MAX ? cut(folded) : folded);
  }
  return words;
}

/**
 * The first word of a text longer than {@link SEARCH_WORD_MAX} code points, if any (as written):
 * a `q` holding one is refused, so that every word searched for fits in what stores index.
 *
 * @example
 * ```ts
 * overlongWord('short words'); // undefined
 * ```
 */
export function overlongWord(text: string): string | undefined {
  for (const [word] of text.normalize('NFC').matchAll(WORD)) {
    if (word.length > SEARCH_WORD_MAX && [...word].length > SEARCH_WORD_MAX) return word;
  }
  return undefined;
}

/** The first {@link SEARCH_WORD_MAX} code points of a word. */
function cut(word: string): string {
  let end = 0;
  let count = 0;
  for (const character of word) {
    if (count++ === SEARCH_WORD_MAX) break;
    end += character.length;
  }
  return word.slice(0, end);
}

/**
 * Whether a record's searchable values hold the search: every word of `words` (already folded,
 * as {@link searchWords} answers them) begins some word of one of `values` (different words may
 * begin words of different values).
 *
 * @example
 * ```ts
 * matchesSearch(['Login crash', 'Happens at start-up'], ['cra', 'start']); // true
 * ```
 */
export function matchesSearch(values: readonly (string | null | undefined)[], words: readonly string[]): boolean {
  const found = values.flatMap((value) => searchWords(value));
  return words.every((word) => found.some((candidate) => candidate.startsWith(word)));
}
