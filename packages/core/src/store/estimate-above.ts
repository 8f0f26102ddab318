/**
 * The most matching records an estimated count (`ListQuery.count` `'estimated'`) counts exactly
 * when the query does not say (`estimateAbove`): past it, a store may answer an estimate.
 *
 * @example
 * ```ts
 * await books.list({ where: [], order, limit: 25, offset: 0, count: 'estimated', estimateAbove: ESTIMATE_ABOVE });
 * ```
 */
export const ESTIMATE_ABOVE = 10_000;
