/** Bounds on what one request may ask for; each breach is a clear 4xx, never a slow answer. */
export interface Limits {
  /**
   * Longest raw query string, in characters (414 beyond), not counting the room a resource adds
   * for one filter value: {@link ENCODED_CODE_POINT} characters per character of its longest
   * filterable string (its `maxLength`), so that every value a body may store can be filtered
   * on. Default 4096.
   */
  readonly queryLength: number;
  /** Most filter values in one index request, all filters together (400 beyond). Default 100. */
  readonly filterValues: number;
  /** Most sort keys (400 beyond). Default 8. */
  readonly sortKeys: number;
  /** Deepest nesting of arrays and objects in a JSON body (400 beyond). Default 32. */
  readonly jsonDepth: number;
  /**
   * Most body fields that are not attributes (unknown names, `__proto__`...) a 422 lists in
   * `errors`; its `detail` counts the others. Default 20.
   */
  readonly unknownFields: number;
  /**
   * Most related records one answer includes, all `include=` relations and records together
   * (400 naming `include` beyond: ask for a smaller page or fewer relations). Default 1000.
   */
  readonly included: number;
  /** Most groups one statistics answer holds (`GET /issues/stats`; 400 naming `group` beyond). Default 1000. */
  readonly groups: number;
}

/**
 * The most characters one code point takes in a percent-encoded query: four UTF-8 bytes of three
 * characters each (`%F0%9F%98%80`).
 *
 * @example
 * ```ts
 * const room = ENCODED_CODE_POINT * 500; // a filter on any string of 500 characters fits in 6000
 * ```
 */
export const ENCODED_CODE_POINT = 12;

/**
 * The default {@link Limits}.
 *
 * @example
 * ```ts
 * defineResource({ name: 'book', model: Book, limits: { sortKeys: DEFAULT_LIMITS.sortKeys * 2 } });
 * ```
 */
export const DEFAULT_LIMITS: Limits = Object.freeze({
  queryLength: 4096,
  filterValues: 100,
  sortKeys: 8,
  jsonDepth: 32,
  unknownFields: 20,
  included: 1000,
  groups: 1000,
});
