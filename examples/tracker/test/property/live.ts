import { openEvents, type ReceivedEvent } from '@resourcery/testing';
import fc from 'fast-check';
import { expect } from 'vitest';
import { type Client, type PrincipalPlan, principalPlan, ROLES, type Seeded, STATUSES, TITLES } from './plan.js';

// The access property of live events: random subscribers (principals of both organizations and
// the three roles, on issues (with a random filter) or users) watch while random principals write
// (creates, updates, archives; many refused). Every event a subscriber receives is one its own
// show allowed right then: a created or updated event equals what its show answered right after
// some write of that record (so never another organization's record, never a hidden field), in
// order; a destroyed event names a record it could see before a write after which it no longer
// could. And every write whose result it may see, through its filter, reaches it.

type Json = Record<string, unknown>;

export interface WatchPlan {
  readonly principal: PrincipalPlan;
  readonly resource: 'issues' | 'users';
  readonly filter: { readonly status?: string; readonly minPriority?: number; readonly role?: string } | undefined;
}

const issueFilter = fc.option(
  fc.oneof(
    fc.record({ status: fc.constantFrom(...STATUSES) }),
    fc.record({ minPriority: fc.integer({ min: 2, max: 4 }) }),
  ),
  { nil: undefined },
);

export const watchPlan: fc.Arbitrary<WatchPlan> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({ principal: principalPlan, resource: fc.constant('issues' as const), filter: issueFilter }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      principal: principalPlan,
      resource: fc.constant('users' as const),
      filter: fc.option(fc.record({ role: fc.constantFrom(...ROLES) }), { nil: undefined }),
    }),
  },
);

export interface WritePlan {
  readonly principal: PrincipalPlan;
  readonly kind: 'create' | 'update' | 'archive' | 'user';
  readonly pick: number;
  readonly status: (typeof STATUSES)[number];
  readonly priority: number;
  readonly title: string;
}

export const writePlan: fc.Arbitrary<WritePlan> = fc.record({
  principal: principalPlan,
  kind: fc.constantFrom('create' as const, 'update' as const, 'update' as const, 'archive' as const, 'user' as const),
  pick: fc.nat(),
  status: fc.constantFrom(...STATUSES),
  priority: fc.integer({ min: 1, max: 4 }),
  title: fc.constantFrom(...TITLES),
});

/** What one subscriber's show answered of a record after a write (nothing when it may not see it), and whether the write created it. */
interface Seen {
  readonly record: Json | undefined;
  readonly created: boolean;
}

export interface Watcher {
  readonly plan: WatchPlan;
  readonly client: Client;
  /** Record path → what the subscriber's show answered before the first write of it, then after each. */
  readonly history: Map<string, Seen[]>;
}

function matches(plan: WatchPlan, record: Json | undefined): boolean {
  if (!record) return false;
  const { filter } = plan;
  if (filter?.status !== undefined && record.status !== filter.status) return false;
  if (filter?.minPriority !== undefined && (record.priority as number) < filter.minPriority) return false;
  if (filter?.role !== undefined && record.role !== filter.role) return false;
  return true;
}

/** The query of a subscriber's stream. */
export function streamPath(plan: WatchPlan): string {
  const { filter } = plan;
  const query = filter?.status
    ? `?filter[status]=${filter.status}`
    : filter?.minPriority
      ? `?filter[priority][gte]=${filter.minPriority}`
      : filter?.role
        ? `?filter[role]=${filter.role}`
        : '';
  return `/${plan.resource}/events${query}`;
}

/** What `client` shows of a record now, as its default stream would see it (an archived issue is gone). */
async function shown(client: Client, path: string): Promise<Json | undefined> {
  const issue = path.startsWith('/issues/');
  const reply = await client.get(issue ? `${path}?archived=true` : path);
  if (reply.status === 404) return undefined;
  expect(reply.status, `GET ${path}: ${reply.text}`).toBe(200);
  const record = Object.values(reply.body as Json)[0] as Json;
  return issue && record.archivedAt ? undefined : record;
}

/** The record an update, archive or user update is about (a create's is known after it). */
export function targetOf(plan: WritePlan, seeded: Seeded): string | undefined {
  if (plan.kind === 'create' || (plan.kind === 'user' && plan.pick % 2 === 0)) return undefined;
  if (plan.kind === 'user') return `/users/${seeded.users[plan.pick % seeded.users.length]}`;
  return `/issues/${seeded.issues[plan.pick % seeded.issues.length]}`;
}

/** Runs one write as `writer`: the path of the record it changed, or nothing when it was refused. */
export async function write(writer: Client, plan: WritePlan, seeded: Seeded, n: number) {
  const target = targetOf(plan, seeded);
  let reply: { status: number; body: Json };
  if (plan.kind === 'create') {
    const projectId = seeded.projects[plan.pick % seeded.projects.length];
    reply = await writer.send('POST', '/issues', {
      projectId,
      title: plan.title,
      status: plan.status,
      priority: plan.priority,
    });
  } else if (plan.kind === 'update') {
    reply = await writer.send('PATCH', target as string, { status: plan.status, title: `${plan.title} ${n}` });
  } else if (plan.kind === 'archive') {
    reply = await writer.send('DELETE', target as string);
  } else if (target === undefined) {
    reply = await writer.send('POST', '/users', { name: `Live ${n}`, email: `live${n}@org.example`, role: 'member' });
  } else {
    reply = await writer.send('PATCH', target, { email: `changed${n}@org.example` });
  }
  if (reply.status === 204) return { path: target as string, created: false };
  if (reply.status !== 200) return undefined;
  const [key, record] = Object.entries(reply.body)[0] as [string, Json];
  if (target !== undefined) return { path: target, created: false };
  seeded[`${key}s` as 'issues' | 'users'].push(record.id as number);
  return { path: `/${key}s/${record.id}`, created: true };
}

/** Each subscriber of the record's resource reads it (before a write that is no create, and after every write). */
export async function snapshot(watchers: readonly Watcher[], path: string, created: boolean, first = false) {
  for (const watcher of watchers) {
    if (!path.startsWith(`/${watcher.plan.resource}/`)) continue;
    const seen = watcher.history.get(path) ?? (created ? [{ record: undefined, created: false }] : []);
    if (first && seen.length > 0) continue;
    seen.push({ record: await shown(watcher.client, path), created });
    watcher.history.set(path, seen);
  }
}

/** Holds the events a subscriber received (up to its marker) to the shows it was allowed, in order, each once. */
export function checkEvents(
  watcher: Watcher,
  events: readonly ReceivedEvent[],
  markers: ReadonlySet<string>,
  label: string,
) {
  const name = watcher.plan.resource.slice(0, -1);
  const expected = new Map<string, string[]>();
  for (const [path, seen] of watcher.history) {
    const wanted: string[] = [];
    for (let n = 1; n < seen.length; n++) {
      const before = (seen[n - 1] as Seen).record;
      const { record: after, created } = seen[n] as Seen;
      const data = (record: Json) => JSON.stringify({ [name]: record });
      if (matches(watcher.plan, after)) wanted.push(`${created ? 'created' : 'updated'} ${data(after as Json)}`);
      else if (matches(watcher.plan, before)) {
        wanted.push(after ? `updated ${data(after)}` : `destroyed ${data({ id: (before as Json).id })}`);
      }
    }
    expected.set(path, wanted);
  }
  const got = new Map<string, string[]>();
  for (const event of events) {
    const data = JSON.parse(event.data) as Json;
    const path = `/${watcher.plan.resource}/${(data[name] as Json).id}`;
    if (markers.has(path)) continue;
    expect(
      expected.has(path),
      `${label}: an event about ${path}, which no write it may see touched: ${event.data}`,
    ).toBe(true);
    got.set(path, [...(got.get(path) ?? []), `${event.event} ${event.data}`]);
  }
  for (const [path, wanted] of expected)
    expect(got.get(path) ?? [], `${label}: the events about ${path}`).toEqual(wanted);
}

/** Opens a subscriber's stream. */
export async function watch(baseUrl: string, authorization: string, plan: WatchPlan) {
  const events = await openEvents(`${baseUrl}${streamPath(plan)}`, { authorization });
  expect(events.status, events.text).toBe(200);
  return events;
}
