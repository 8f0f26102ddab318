import fc from 'fast-check';
import { expect } from 'vitest';
import { type FilterPlan, filtersOf, type Json } from './filters.js';
import type { Client, Role, Seeded } from './plan.js';
import { expected, filterParams, type View } from './reference.js';

// Random statistics of the access property: `GET /issues/stats` (no group, `group=status`,
// `group=status,priority` with `sum=estimate`, ...) and `GET /users/stats` (`group=email` hidden
// from all but admins), with the index's random filters (`q`, label filters, relation filters)
// and `archived=true`. The answer is held against the caller's own index with the same filters:
// the entries are its records grouped (counts, exact sums), and each count is the index's
// X-Total-Count with that group's values as filters too.

export interface StatsPlan {
  readonly resource: 'issues' | 'users';
  readonly filters: readonly FilterPlan[];
  readonly archived: boolean;
  readonly group?: string;
  readonly sum?: string;
}

const optional = <T>(values: readonly T[]) => fc.option(fc.constantFrom(...values), { nil: undefined });

export const statsPlan: fc.Arbitrary<StatsPlan> = fc.oneof(
  fc.record({
    resource: fc.constant('issues' as const),
    filters: filtersOf('issues'),
    archived: fc.boolean(),
    group: optional(['status', 'status,priority', 'assigneeId', 'projectId,status']),
    sum: optional(['estimate', 'priority', 'estimate,priority']),
  }),
  fc.record({
    resource: fc.constant('users' as const),
    filters: filtersOf('users'),
    archived: fc.constant(false),
    group: fc.constantFrom('role', 'email', 'role,email'),
  }),
);

/** The attributes summed exactly as decimals with two places (the others are integers). */
const DECIMALS = new Set(['estimate']);

/** A decimal string in hundredths (`"-1.1"` is `-110n`). */
function hundredths(value: string): bigint {
  const [whole = '0', fraction = ''] = value.replace(/^[-+]/, '').split('.');
  const units = BigInt(whole || '0') * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
  return value.startsWith('-') ? -units : units;
}

/** Hundredths as a decimal string with two places (`-110n` is `"-1.10"`). */
function decimal(units: bigint): string {
  const size = units < 0n ? -units : units;
  return `${units < 0n ? '-' : ''}${size / 100n}.${String(size % 100n).padStart(2, '0')}`;
}

/** The sum of an attribute over records, as the statistics answer it (`null` when every value is null). */
function sumOf(records: readonly Json[], field: string): unknown {
  const values = records.map((record) => record[field]).filter((value) => value !== null);
  if (!values.length) return null;
  if (DECIMALS.has(field)) return decimal(values.reduce((total, value) => total + hundredths(value), 0n));
  return values.reduce((total, value) => total + value, 0);
}

/** Group values in the order of the answer: `null` first, numbers numerically, strings by code point. */
function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return (a as number | string) < (b as number | string) ? -1 : 1;
}

/** The entries statistics must answer for these records: the index's own records, grouped. */
function entriesOf(records: readonly Json[], group: readonly string[], sum: readonly string[]): Json[] {
  const groups = new Map<string, Json[]>();
  for (const record of records) {
    const key = JSON.stringify(group.map((field) => record[field]));
    groups.set(key, [...(groups.get(key) ?? []), record]);
  }
  if (!group.length && !groups.size) groups.set('[]', []);
  const keys = [...groups.keys()].map((key) => JSON.parse(key) as unknown[]);
  keys.sort((a, b) => a.reduce<number>((order, value, i) => order || compare(value, b[i]), 0));
  return keys.map((values) => {
    const members = groups.get(JSON.stringify(values)) as Json[];
    const entry: Json = Object.fromEntries(group.map((field, i) => [field, values[i]]));
    entry.count = members.length;
    if (sum.length) entry.sum = Object.fromEntries(sum.map((field) => [field, sumOf(members, field)]));
    return entry;
  });
}

/**
 * The filters selecting one group's values (`filter[x]=v`, `filter[x][null]=true`), leaving out
 * those the plan already gives (the same parameter twice is a 400); `undefined` when the plan
 * gives one with another value: then no record can have the group's values.
 */
function groupParams(plan: StatsPlan, seeded: Seeded, entry: Json, group: readonly string[]): string[] | undefined {
  const given = new Map(filterParams(plan.filters, seeded).map((pair) => pair.split('=') as [string, string]));
  const params: string[] = [];
  for (const field of group) {
    const [key, value] =
      entry[field] === null ? [`filter[${field}][null]`, 'true'] : [`filter[${field}]`, String(entry[field])];
    const encoded = encodeURIComponent(value);
    if (!given.has(key)) params.push(`${key}=${encoded}`);
    else if (given.get(key) !== encoded) return undefined;
  }
  return params;
}

/** Asks one statistics query as one caller and holds the answer against that caller's own index. */
export async function checkStats(
  caller: { client: Client; view: View; role: Role; label: string },
  plan: StatsPlan,
  seeded: Seeded,
): Promise<void> {
  const { client, view } = caller;
  const group = plan.group ? plan.group.split(',') : [];
  const sum = plan.sum ? plan.sum.split(',') : [];
  const filters = [...filterParams(plan.filters, seeded), ...(plan.archived ? ['archived=true'] : [])];
  const asked = [...filters, ...(plan.group ? [`group=${plan.group}`] : []), ...(plan.sum ? [`sum=${plan.sum}`] : [])];
  const path = `/${plan.resource}/stats?${asked.join('&')}`;
  const label = `${caller.label}: GET ${path}`;
  const reply = await client.get(path);
  if (caller.role !== 'admin' && (group.includes('email') || plan.filters.some((each) => each.hidden))) {
    // Hidden: the answer, byte for byte, to a name that does not exist.
    const unknown = await client.get(path.replaceAll('email', 'emayl'));
    expect(reply.status, `${label}: ${reply.text}`).toBe(400);
    expect(reply.text.replaceAll('email', 'emayl'), `${label}: as unknown`).toBe(unknown.text);
    return;
  }
  expect(reply.status, `${label}: ${reply.text}`).toBe(200);
  // The caller's own index with the same filters, and what the reference says it may list.
  const index = await client.get(`/${plan.resource}?${[...filters, 'per_page=100'].join('&')}`);
  expect(index.status, `${label} (index): ${index.text}`).toBe(200);
  const records = index.body[plan.resource] as Json[];
  const total = Number(index.headers.get('x-total-count'));
  expect(records.length, `${label}: the index fits one page`).toBe(total);
  const { lower, upper } = expected(plan, view, seeded);
  for (const record of records) expect(upper.has(record.id), `${label}: ${record.id} is the caller’s`).toBe(true);
  expect(total, `${label}: X-Total-Count`).toBeGreaterThanOrEqual(lower.size);
  // The entries are the index's records grouped, counted and summed.
  const entries = reply.body.stats as Json[];
  expect(entries, `${label}: the index’s records grouped`).toEqual(entriesOf(records, group, sum));
  if (!group.length) return;
  for (const entry of entries) {
    const extra = groupParams(plan, seeded, entry, group);
    expect(extra, `${label}: ${JSON.stringify(entry)} contradicts the filters`).toBeDefined();
    const narrowed = `/${plan.resource}?${[...filters, ...(extra ?? [])].join('&')}`;
    const each = await client.get(narrowed);
    expect(each.status, `${label}: GET ${narrowed}: ${each.text}`).toBe(200);
    expect(entry.count, `${label}: count of ${JSON.stringify(entry)} is GET ${narrowed}’s X-Total-Count`).toBe(
      Number(each.headers.get('x-total-count')),
    );
  }
}
