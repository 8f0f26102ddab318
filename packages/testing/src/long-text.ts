/**
 * A string of `length` characters (code points) starting with `mark`: the rest are CJK ideographs
 * of 4 UTF-8 bytes each, in a pseudo-random order that compression cannot shrink. The longest
 * value an attribute accepts, in the most bytes it can take: what index entries and columns count
 * (PostgreSQL compresses a repeated character so well that it would fit anywhere).
 *
 * @example
 * ```ts
 * longText('a', 500).length; // 1000 UTF-16 code units: 500 code points
 * ```
 */
export function longText(mark: string, length: number): string {
  let state = 0x9e3779b9 ^ [...mark].reduce((sum, character) => sum * 31 + (character.codePointAt(0) ?? 0), 7);
  const characters = [mark];
  for (let at = [...mark].length; at < length; at++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    characters.push(String.fromCodePoint(0x20000 + ((state >>> 8) % 0xa6d0)));
  }
  return characters.join('');
}
