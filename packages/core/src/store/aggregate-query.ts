import type { Scalar } from '../schema/types.js';
import type { Condition } from './store.js';

/**
 * A statistics query (`GET /issues/stats`), already validated by the core: the records matching
 * `where`, grouped by the values of `group` (0 to 3 attributes, never JSON), each group with its
 * count and the asked aggregates. `sum` names integer and decimal attributes; `min` and `max`
 * also date and date-time ones.
 */
export interface AggregateQuery {
  readonly where: readonly Condition[];
  readonly group: readonly string[];
  readonly sum: readonly string[];
  readonly min: readonly string[];
  readonly max: readonly string[];
  /** The most groups to answer (the core asks one more than it allows, to tell "too many"). */
  readonly limit: number;
}

/**
 * One group of an {@link AggregateQuery}, its values in the query's order. Values are canonical
 * (as records hold them); a `sum` of decimals is exact with the attribute's scale (`"12.50"`), of
 * integers a number while it is a safe integer and else its exact decimal text; an aggregate
 * over no value (every one `null`) is `null`.
 */
export interface AggregateRow {
  readonly group: readonly Scalar[];
  readonly count: number;
  readonly sum: readonly Scalar[];
  readonly min: readonly Scalar[];
  readonly max: readonly Scalar[];
}
