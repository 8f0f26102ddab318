import fc from 'fast-check';
import { expect } from 'vitest';
import { type Client, type Role, type Seeded, STATUSES } from './plan.js';
import type { Json } from './queries.js';
import { hasKeyDeep, viewOf } from './reference.js';

// The access property of bulk writes: a caller's bulk create, update or destroy over random ids
// of both organizations succeeds exactly when each record is one the caller may see (and may
// change as asked); otherwise it is refused as the contract says and nothing changes, in either
// organization; and what a success answers is what the caller's own shows then answer.

export interface BulkPlan {
  readonly kind: 'create' | 'update' | 'destroy';
  /** Picks among the seeded issues (update, destroy) or projects (create) of both organizations. */
  readonly picks: readonly number[];
  readonly status: (typeof STATUSES)[number];
  /** A priority to set: only admins may change it. */
  readonly priority: number | undefined;
}

export const bulkPlan: fc.Arbitrary<BulkPlan> = fc.record({
  kind: fc.constantFrom('create' as const, 'update' as const, 'destroy' as const),
  picks: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
  status: fc.constantFrom(...STATUSES),
  priority: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
});

/** Every issue of both organizations, archived ones too, as their admins list them. */
async function everything(admins: readonly Client[]): Promise<string> {
  const lists = await Promise.all(admins.map((admin) => admin.get('/issues?per_page=100&archived=true&sort=id')));
  return JSON.stringify(lists.map((reply) => reply.body));
}

export interface BulkCaller {
  readonly client: Client;
  readonly role: Role;
  readonly org: number;
  readonly label: string;
}

/** Runs one bulk write as `caller` and holds the answer, and the records after it, to the rules. */
export async function checkBulk(caller: BulkCaller, plan: BulkPlan, seeded: Seeded, admins: readonly Client[]) {
  const { client, role, org } = caller;
  const view = await viewOf(client);
  const before = await everything(admins);
  const pool = plan.kind === 'create' ? seeded.projects : seeded.issues;
  const ids = [...new Set(plan.picks.map((pick) => pool[pick % pool.length]))];
  const visible = plan.kind === 'create' ? view.strict.projects : view.strict.issues;
  const hidden = ids.filter((id) => !visible.has(id));
  let reply: { status: number; body: Json; text: string };
  let expected: number;
  if (plan.kind === 'create') {
    const issues = ids.map((projectId, n) => ({ projectId, title: `Bulk ${n}`, status: plan.status }));
    reply = await client.send('POST', '/issues', { issues });
    expected = role === 'viewer' ? 403 : hidden.length > 0 ? 422 : 200;
    if (reply.status === 422) {
      const named = ids.flatMap((id, n) => (hidden.includes(id) ? [`/issues/${n}/projectId`] : []));
      expect(Object.keys(reply.body.errors as object).sort(), caller.label).toEqual(named.sort());
    }
  } else if (plan.kind === 'update') {
    const change = { status: plan.status, ...(plan.priority === undefined ? {} : { priority: plan.priority }) };
    reply = await client.send('PATCH', '/issues', { issues: ids.map((id) => ({ id, ...change })) });
    // A member may send an issue's priority unchanged, not change it.
    const changesPriority = ids.some((id) => visible.has(id) && visible.get(id)?.priority !== plan.priority);
    const forbidden = role === 'viewer' || (role === 'member' && plan.priority !== undefined && changesPriority);
    expected = forbidden ? 403 : hidden.length > 0 ? 422 : 200;
  } else {
    reply = await client.send('DELETE', `/issues?${ids.map((id) => `filter[id][]=${id}`).join('&')}`);
    expected = role !== 'admin' ? 403 : hidden.length > 0 ? 404 : 204;
  }
  const label = `${caller.label}: bulk ${plan.kind} of ${ids.join(', ')}`;
  expect(reply.status, `${label}: ${reply.text}`).toBe(expected);
  if (role !== 'admin') expect(hasKeyDeep(reply.body, 'email'), `${label}: email`).toBe(false);
  expect(reply.text, `${label}: another organization's record`).not.toMatch(new RegExp(`"orgId":${3 - org}\\b`));
  if (expected >= 400) {
    expect(await everything(admins), `${label}: nothing changes, in either organization`).toBe(before);
    return;
  }
  if (expected === 204) {
    for (const id of ids) expect((await client.get(`/issues/${id}`)).status, `${label}: ${id} archived`).toBe(404);
    return;
  }
  for (const record of reply.body.issues as Json[]) {
    expect(record.orgId, label).toBe(org);
    const shown = await client.get(`/issues/${record.id}`);
    expect(shown.body?.issue, `${label}: the answer is what a show of ${record.id} answers`).toEqual(record);
  }
}
