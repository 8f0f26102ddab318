import { BadRequestError } from '../errors/http-error.js';
import { checkIfMatch } from '../http/conditional.js';
import type { NeutralRequest } from '../http/neutral.js';
import type { StatsAllowed, StatsKind } from '../query/stats-query.js';
import type { AttributeSchema, AttributeType } from '../schema/types.js';
import type { AggregateRow } from '../store/store.js';
import type { Context } from './context.js';
import { INDEXED_STRING_LENGTH } from './indexes.js';

/**
 * What statistics (`GET /<plural>/stats`) a resource serves: `stats: true` allows grouping by
 * every shown attribute but `id`, JSON and strings declared longer than 500 characters, summing every integer and decimal one,
 * and `min`/`max` of those and of dates and date-times; the object form lists the attributes
 * each parameter may name instead (a parameter left out allows none).
 *
 * @example
 * ```ts
 * defineResource({ name: 'issue', model: Issue, stats: { group: ['status', 'priority'], sum: ['estimate'] } });
 * ```
 */
export interface StatsDeclaration<M> {
  readonly group?: readonly (keyof M & string)[];
  readonly sum?: readonly (keyof M & string)[];
  readonly min?: readonly (keyof M & string)[];
  readonly max?: readonly (keyof M & string)[];
}

/** The attributes each statistics parameter may name, for every caller (hidden fields are taken out per caller). */
export type StatsRules = StatsAllowed;

const SUMMABLE: readonly AttributeType[] = ['integer', 'decimal'];
const ORDERED: readonly AttributeType[] = ['integer', 'decimal', 'date', 'date-time'];
/** The members of an answer's entry: no group attribute may take one of these names. */
const ENTRY_MEMBERS = new Set(['count', 'sum', 'min', 'max']);

/**
 * Whether an attribute may be named by a statistics parameter: a group takes any attribute but
 * JSON (`stats: true` leaves out strings declared longer than 500 characters: long text makes
 * poor groups), `sum` integers and decimals,
 * `min` and `max` also dates and date-times.
 */
function fits(kind: 'group' | StatsKind, attribute: AttributeSchema, offered = false): boolean {
  if (kind === 'group') {
    const long = attribute.type === 'string' && (attribute.maxLength ?? 0) > INDEXED_STRING_LENGTH;
    return attribute.type !== 'json' && !ENTRY_MEMBERS.has(attribute.name) && !(offered && long);
  }
  return (kind === 'sum' ? SUMMABLE : ORDERED).includes(attribute.type);
}

/**
 * The `stats` declaration checked against the resource's shown attributes (`id` is never one):
 * an attribute that is not shown, or does not fit the parameter, is a mistake of the declaration.
 */
export function compileStats(
  name: string,
  declared: true | StatsDeclaration<Record<string, unknown>> | undefined,
  attributes: ReadonlyMap<string, AttributeSchema>,
  shown: readonly string[],
): StatsRules | undefined {
  if (declared === undefined) return undefined;
  const candidates = shown.filter((field) => field !== 'id').map((field) => attributes.get(field) as AttributeSchema);
  const rules = {} as Record<'group' | StatsKind, ReadonlySet<string>>;
  for (const kind of ['group', 'sum', 'min', 'max'] as const) {
    if (declared === true) {
      rules[kind] = new Set(candidates.filter((attribute) => fits(kind, attribute, true)).map((a) => a.name));
      continue;
    }
    for (const field of declared[kind] ?? []) {
      const attribute = candidates.find((candidate) => candidate.name === field);
      if (!attribute || !fits(kind, attribute)) {
        throw new TypeError(`defineResource(${name}): stats.${kind} names "${field}", which cannot be used there`);
      }
    }
    rules[kind] = new Set(declared[kind] ?? []);
  }
  return rules;
}

/** What this caller may name: the resource's rules without the fields hidden from them. */
export function statsAllowed(rules: StatsRules, hidden: ReadonlySet<string>): StatsAllowed {
  if (hidden.size === 0) return rules;
  const visible = (names: ReadonlySet<string>) => new Set([...names].filter((name) => !hidden.has(name)));
  return { group: visible(rules.group), sum: visible(rules.sum), min: visible(rules.min), max: visible(rules.max) };
}

/**
 * The work of `GET /<plural>/stats` between the hooks: the index's conditions (`filter[...]`,
 * `q`, archive, and `ctx.where`: tenancy, read rules, the scope step's) aggregated by the store,
 * at most `limits.groups` groups (400 naming `group` beyond), rendered as `{ stats: [...] }`.
 */
export async function statsStep(ctx: Context, request: NeutralRequest): Promise<void> {
  const stats = ctx.stats;
  const query = ctx.query;
  checkIfMatch(request.headers['if-match'], undefined);
  const collection = ctx.collection;
  if (!collection.aggregate) {
    throw new Error(`${ctx.resource.name}: its store does not implement Collection.aggregate (statistics)`);
  }
  const most = ctx.compiled.limits.groups;
  const rows = await collection.aggregate({ where: [...query.where, ...ctx.where], ...stats, limit: most + 1 });
  if (rows.length > most) {
    throw new BadRequestError(
      `group: more than ${most} groups; group by fewer attributes or filter the ${ctx.resource.plural}`,
      'invalid_query',
    );
  }
  ctx.rows = rows;
  ctx.result = { stats: rows.map((row) => statsEntry(ctx, row)) };
}

/** One entry of the answer: the group's values by name, `count`, then each asked aggregate. */
function statsEntry(ctx: Context, row: AggregateRow): Record<string, unknown> {
  const { group, sum, min, max } = ctx.stats;
  const entry: Record<string, unknown> = {};
  group.forEach((field, i) => {
    entry[field] = row.group[i] ?? null;
  });
  entry.count = row.count;
  const named = (names: readonly string[], values: readonly unknown[]) =>
    Object.fromEntries(names.map((field, i) => [field, values[i] ?? null]));
  if (sum.length > 0) entry.sum = named(sum, row.sum);
  if (min.length > 0) entry.min = named(min, row.min);
  if (max.length > 0) entry.max = named(max, row.max);
  return entry;
}
