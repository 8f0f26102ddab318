import { expect } from 'vitest';
import type { Client, Seeded } from './plan.js';
import { type Json, type Lookup, type QueryPlan, RELATIONS, type ResourceKey, testOf } from './queries.js';

// What one caller may see, read through its own unfiltered index of each resource (issues with
// and without archived=true), and the checks that hold every other answer against it.

const KEYS: readonly ResourceKey[] = ['users', 'projects', 'labels', 'issues', 'comments'];
const NOWHERE: Record<ResourceKey, number | string> = {
  users: 987654321,
  projects: 987654321,
  labels: 987654321,
  issues: 987654321,
  comments: '00000000-0000-4000-8000-000000000000',
};

/** A caller's own view: `strict` as the plain index shows it, `wide` with archived issues too. */
export interface View {
  readonly strict: Record<ResourceKey, Map<unknown, Json>>;
  readonly wide: Record<ResourceKey, Map<unknown, Json>>;
}

async function listAll(client: Client, path: string, key: ResourceKey): Promise<Map<unknown, Json>> {
  const reply = await client.get(path);
  expect(reply.status, `${path}: ${reply.text}`).toBe(200);
  const records = reply.body[key] as Json[];
  expect(records.length, `${path} fits one page`).toBeLessThan(100);
  return new Map(records.map((record) => [record.id, record]));
}

export async function viewOf(client: Client): Promise<View> {
  const strict = {} as View['strict'];
  for (const key of KEYS) strict[key] = await listAll(client, `/${key}?per_page=100`, key);
  const wide = { ...strict, issues: await listAll(client, '/issues?per_page=100&archived=true', 'issues') };
  return { strict, wide };
}

/** The request of a query, with its seeded ids resolved. */
export function pathOf(query: QueryPlan, seeded: Seeded): string {
  const ids = seeded[query.resource];
  const params: string[] = [];
  if (query.fields) params.push(`fields=${query.fields}`);
  if (query.include) params.push(`include=${query.include}`);
  if (query.archived) params.push('archived=true');
  if (query.show !== undefined) {
    const id = query.show % (ids.length + 1) === ids.length ? NOWHERE[query.resource] : ids[query.show % ids.length];
    return `/${query.resource}/${id}${params.length ? `?${params.join('&')}` : ''}`;
  }
  params.push(...filterParams(query.filters, seeded));
  if (query.sort) params.push(`sort=${query.sort}`);
  if (query.page) params.push(`page=${query.page}`);
  if (query.perPage) params.push(`per_page=${query.perPage}`);
  if (query.resource === 'comments') params.push('count=true');
  return `/${query.resource}?${params.join('&')}`;
}

/** The `key=value` pairs of filters, one per value of an any-of (`[]`) parameter. */
export function filterParams(filters: QueryPlan['filters'], seeded: Seeded): string[] {
  return filters.flatMap((each) => {
    const value = filterValue(each, seeded);
    const values = each.param.endsWith('[]') ? value.split(',') : [value];
    return values.map((one) => `${each.param}=${encodeURIComponent(one)}`);
  });
}

function filterValue(each: QueryPlan['filters'][number], seeded: Seeded): string {
  if (!each.pick) return each.value;
  const ids = seeded[each.pick.resource];
  return ids.length ? String(ids[each.pick.index % ids.length]) : '987654321';
}

const lookupIn =
  (records: View['strict']): Lookup =>
  (resource, id) =>
    records[resource].get(id);

/** The records of `query`'s resource the caller sees (archived issues too with archived=true). */
const baseOf = (query: QueryPlan, view: View) => (query.archived ? view.wide : view.strict)[query.resource];

/**
 * The ids an index may answer, at least (`lower`: relation filters through what the plain index
 * shows) and at most (`upper`: through archived issues too, which the contract leaves open).
 */
export function expected(query: QueryPlan, view: View, seeded: Seeded): { lower: Set<unknown>; upper: Set<unknown> } {
  const match = (lookup: Lookup) =>
    new Set(
      [...baseOf(query, view).values()]
        .filter((record) =>
          query.filters.every((each) => testOf(query.resource, each.param)(record, filterValue(each, seeded), lookup)),
        )
        .map((record) => record.id),
    );
  return { lower: match(lookupIn(view.strict)), upper: match(lookupIn(view.wide)) };
}

/** Asserts one record of an answer: one the caller sees, with its fields as they see them and its includes. */
export function checkRecord(query: QueryPlan, record: Json, view: View, label: string): void {
  const known = baseOf(query, view).get(record.id);
  expect(known, `${label}: record ${record.id} is one the caller’s own index lists`).toBeDefined();
  const includes = query.include ? query.include.split(',') : [];
  const fields = query.fields ? ['id', ...query.fields.split(',')] : Object.keys(known as Json);
  expect(Object.keys(record).sort(), `${label}: fields`).toEqual([...fields, ...includes].sort());
  for (const field of fields) expect(record[field], `${label}: ${field}`).toEqual((known as Json)[field]);
  for (const name of includes) {
    const relation = RELATIONS[query.resource][name];
    if (!relation) throw new Error(`no relation ${name}`);
    const included = record[name];
    if (relation.kind === 'one') {
      const key = (known as Json)[relation.key];
      if (included === null) {
        expect(
          key === null || !view.strict[relation.target].has(key),
          `${label}: ${name} is visible, so included`,
        ).toBe(true);
      } else {
        expect(included, `${label}: ${name} as the caller’s own index shows it`).toEqual(
          view.wide[relation.target].get(key),
        );
      }
    } else if (relation.kind === 'set') {
      // Its labels the caller sees (all of them: a label is its own organization's), by id.
      const ids = ((known as Json)[relation.key] as unknown[]).filter((id) => view.strict[relation.target].has(id));
      expect(included, `${label}: ${name} as the caller’s own index shows them`).toEqual(
        ids.map((id) => view.strict[relation.target].get(id)),
      );
    } else {
      expect(Array.isArray(included), `${label}: ${name} is a list`).toBe(true);
      for (const item of included as Json[]) {
        expect(item, `${label}: ${name} ${item.id} as the caller’s own index shows it`).toEqual(
          view.wide[relation.target].get(item.id),
        );
        expect(item[relation.key]).toBe(record.id);
      }
    }
  }
}

/** Whether any object in a JSON value has the key `name`. */
export function hasKeyDeep(value: unknown, name: string): boolean {
  if (Array.isArray(value)) return value.some((item) => hasKeyDeep(item, name));
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, inner]) => key === name || hasKeyDeep(inner, name));
}

/** Whether the show of `query` names a record the caller sees. */
export function showable(query: QueryPlan, view: View, path: string): boolean {
  const id = decodeURIComponent(path.split('?')[0]?.split('/')[2] ?? '');
  return [...baseOf(query, view).keys()].some((key) => String(key) === id);
}
