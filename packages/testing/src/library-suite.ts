import { type CaseGroup, registerGroups } from './http-cases/group.js';
import type { HttpSuiteOptions, HttpSuiteTarget } from './http-suite.js';
import { foreignKeyCases, uniqueCases } from './library-cases/constraint-cases.js';
import { cursorCases } from './library-cases/cursor-cases.js';
import { cursorErrorCases, cursorWritingCases } from './library-cases/cursor-error-cases.js';
import { dateTimeCases } from './library-cases/date-time-cases.js';
import { decimalCases } from './library-cases/decimal-cases.js';
import { destroyCases } from './library-cases/destroy-cases.js';
import { includeBoundCases, includeCases, includeLimitCases } from './library-cases/include-cases.js';
import { jsonCases } from './library-cases/json-cases.js';
import { operatorCases } from './library-cases/operator-cases.js';
import { operatorErrorCases } from './library-cases/operator-error-cases.js';
import { relationFilterCases } from './library-cases/relation-filter-cases.js';
import { sparseFieldCases } from './library-cases/sparse-field-cases.js';
import { stringLengthCases } from './library-cases/string-length-cases.js';
import { stringOperatorCases } from './library-cases/string-operator-cases.js';
import { timestampCases } from './library-cases/timestamp-cases.js';
import { uuidCases } from './library-cases/uuid-cases.js';

/** Options of {@link libraryConformanceSuite}: cases to skip (by name, with the reason) and the timeout. */
export type LibrarySuiteOptions = HttpSuiteOptions;

const GROUPS: readonly CaseGroup[] = [
  dateTimeCases,
  decimalCases,
  jsonCases,
  uuidCases,
  timestampCases,
  stringLengthCases,
  uniqueCases,
  foreignKeyCases,
  destroyCases,
  includeCases,
  includeLimitCases,
  includeBoundCases,
  operatorCases,
  stringOperatorCases,
  operatorErrorCases,
  relationFilterCases,
  sparseFieldCases,
  cursorCases,
  cursorErrorCases,
  cursorWritingCases,
];

/**
 * The names of every case of {@link libraryConformanceSuite}, for `skip`.
 *
 * @example
 * ```ts
 * libraryConformanceSuite('my store', start, { skip: { [libraryCaseNames[0]]: 'not supported yet' } });
 * ```
 */
export const libraryCaseNames: readonly string[] = GROUPS.flatMap((entry) => Object.keys(entry.cases));
if (new Set(libraryCaseNames).size !== libraryCaseNames.length) {
  throw new Error('libraryConformanceSuite: duplicate case name');
}

/**
 * Registers the conformance suite of CONTRACT part 3 (several resources: relations, richer
 * queries, richer types), run over real HTTP with `fetch`: date-times, decimals, json values and
 * uuid ids on the wire, server-set timestamps, the longest valid strings, unique values, foreign
 * keys, destroy rules, `include=`, filter operators (also through a belongs-to relation), sparse
 * `fields=` and cursor pagination.
 *
 * `start` must serve the contract's library under `/api` on an empty store: `author`
 * (`/api/authors`), `book` (`/api/books`) and `review` (`/api/reviews`), declared as in
 * `examples/library` (a unique `isbn`, a 2-place decimal `price`, timestamps, uuid review ids,
 * reviews destroyed with their book and paged with cursors), and beside them {@link noteResource}
 * (`/api/notes`, for the `json` attribute type the library does not use). It is called once per
 * group of cases, and the target is closed after the group. The cases rely on nothing but the contract: not on ids starting at
 * 1, not on timing (they compare timestamps, never expect a value), not on a particular store.
 *
 * @example
 * ```ts
 * // examples/library/test/library-conformance.test.ts
 * libraryConformanceSuite('library + memory store', () => serveHttp(createApp(memoryStore(), [noteResource()])));
 * ```
 */
export function libraryConformanceSuite(
  name: string,
  start: () => Promise<HttpSuiteTarget>,
  options: LibrarySuiteOptions = {},
): void {
  registerGroups(name, GROUPS, start, options);
}
