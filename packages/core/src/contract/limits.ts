/** Bounds on what one request may ask for; each breach is a clear 4xx, never a slow answer. */
export interface Limits {
  /** Longest raw query string, in characters (414 beyond). Default 4096. */
  readonly queryLength: number;
  /** Most filter values in one index request, all filters together (400 beyond). Default 100. */
  readonly filterValues: number;
  /** Most sort keys (400 beyond). Default 8. */
  readonly sortKeys: number;
  /** Deepest nesting of arrays and objects in a JSON body (400 beyond). Default 32. */
  readonly jsonDepth: number;
}

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
});
