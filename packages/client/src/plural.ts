/**
 * English plural of a simple noun, the same rule as the server's default.
 *
 * @example
 * ```ts
 * pluralize('category'); // 'categories'
 * ```
 */
export function pluralize(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}
