// The default plural of a resource's name: part of the contract, since the plural is the key of
// lists and the path segment. The typed client keeps a copy of its own (it depends on nothing
// at run time), and its contract-sync test ties the two together.

/**
 * English plural of a simple noun; irregular ones are set with the `plural` option.
 *
 * @example
 * ```ts
 * pluralize('book'); // 'books'
 * pluralize('category'); // 'categories'
 * ```
 */
export function pluralize(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}
