import { echo } from '../errors/echo.js';
import { overlongWord, SEARCH_WORD_MAX, SEARCH_WORDS_MAX, searchWords } from '../store/search-words.js';
import type { Condition } from '../store/store.js';
import { invalid } from './resolve-filter.js';

/**
 * The condition of `q=`: its words, folded, searched in `fields` (the resource's `search` fields
 * the caller may read; none of them: nothing matches). A 400 naming `q` when the resource has no `search`, when `q` has no
 * word, more than {@link SEARCH_WORDS_MAX} words or a word longer than {@link SEARCH_WORD_MAX}
 * characters. Repeated words count once (every word must match anyway).
 *
 * @example
 * ```ts
 * searchCondition('Login CRASH', ['title', 'body']);
 * // { field: 'title', values: [], search: { fields: ['title', 'body'], words: ['login', 'crash'] } }
 * ```
 */
export function searchCondition(q: string, fields: readonly string[] | undefined): Condition {
  if (fields === undefined) throw invalid('q is not accepted here: this resource declares no search');
  const long = overlongWord(q);
  if (long !== undefined)
    throw invalid(`q: a word may have at most ${SEARCH_WORD_MAX} characters (got "${echo(long, 30)}")`);
  const words = [...new Set(searchWords(q))];
  if (words.length === 0) throw invalid(`q must hold at least one word of letters or digits (got "${echo(q)}")`);
  if (words.length > SEARCH_WORDS_MAX)
    throw invalid(`q may hold at most ${SEARCH_WORDS_MAX} words (got ${words.length})`);
  return { field: fields[0] ?? 'id', values: [], search: { fields: [...fields], words } };
}
