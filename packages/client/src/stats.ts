import { filterPairs } from './query-string.js';
import type { ModelFilter } from './query-types.js';
import type { CallOptions, DataKey, Unmarked } from './types.js';

/** The value of a field as an entry answers it, without `null` (added where it may be). */
type Value<M, K extends DataKey<M>> = NonNullable<Unmarked<M[K & keyof M]>>;

/**
 * The parameters of a statistics call (`GET /<plural>/stats`): the index's filters, `q` and
 * `archived`, the attributes to group by (up to 3) and those to sum, and whose least and greatest
 * values to answer.
 *
 * @example
 * ```ts
 * const params: StatsParams<Issue, 'status', 'estimate'> = { group: ['status'], sum: ['estimate'] };
 * ```
 */
export interface StatsParams<
  M,
  G extends DataKey<M>,
  S extends DataKey<M>,
  L extends DataKey<M>,
  H extends DataKey<M>,
> {
  filter?: ModelFilter<M>;
  /** Search words, sent as `q` (a resource that declares `search`): only the records the index's search keeps count. */
  q?: string;
  /** `true`: archived records count too (a resource that archives). */
  archived?: boolean;
  group?: readonly G[];
  sum?: readonly S[];
  min?: readonly L[];
  max?: readonly H[];
}

/**
 * One group of a statistics answer, typed by the call: the group's values, `count`, and each
 * asked aggregate (`null` when every value is `null`); a sum of decimals is exact text (`"12.50"`).
 *
 * @example
 * ```ts
 * const [first]: StatsEntry<Issue, 'status', 'estimate', never, never>[] = await issues.stats({ group: ['status'], sum: ['estimate'] });
 * first?.sum.estimate; // string | null
 * ```
 */
export type StatsEntry<M, G extends DataKey<M>, S extends DataKey<M>, L extends DataKey<M>, H extends DataKey<M>> = {
  [K in G]: Value<M, K> | null;
} & { count: number } & ([S] extends [never] ? unknown : { sum: { [K in S]: Value<M, K> | null } }) &
  ([L] extends [never] ? unknown : { min: { [K in L]: Value<M, K> | null } }) &
  ([H] extends [never] ? unknown : { max: { [K in H]: Value<M, K> | null } });

/**
 * The `stats` method of a client: typed by the attributes asked for.
 *
 * @example
 * ```ts
 * const entries = await issues.stats({ group: ['status'], sum: ['estimate'] });
 * entries[0]?.status; // 'open' | 'in_progress' | 'done' | null
 * ```
 */
export type StatsMethod<M> = <
  G extends DataKey<M> = never,
  S extends DataKey<M> = never,
  L extends DataKey<M> = never,
  H extends DataKey<M> = never,
>(
  params?: StatsParams<M, G, S, L, H>,
  options?: CallOptions,
) => Promise<StatsEntry<M, G, S, L, H>[]>;

/**
 * The query string of a statistics call.
 *
 * @example
 * ```ts
 * statsQueryString({ group: ['status'], sum: ['estimate'] }); // 'group=status&sum=estimate'
 * statsQueryString({ q: 'login crash', group: ['status'] }); // 'q=login%20crash&group=status'
 * ```
 */
export function statsQueryString(params: {
  filter?: Record<string, unknown>;
  q?: string;
  archived?: boolean;
  group?: readonly string[];
  sum?: readonly string[];
  min?: readonly string[];
  max?: readonly string[];
}): string {
  const parts: string[] = [];
  for (const [field, value] of Object.entries(params.filter ?? {})) {
    if (value !== undefined) parts.push(...filterPairs(field, value as never));
  }
  if (params.q !== undefined) parts.push(`q=${encodeURIComponent(params.q)}`);
  if (params.archived !== undefined) parts.push(`archived=${params.archived}`);
  for (const key of ['group', 'sum', 'min', 'max'] as const) {
    const names = params[key];
    if (names && names.length > 0) parts.push(`${key}=${names.map(encodeURIComponent).join(',')}`);
  }
  return parts.join('&');
}
