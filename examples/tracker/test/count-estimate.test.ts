import { resourceClient } from '@resourcery/client';
import { sqlStore } from '@resourcery/sql';
import type { HttpSuiteTarget } from '@resourcery/testing';
import { SignJWT } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { droppingTables, SERVERS, serverAvailable } from '../../../packages/sql/test/helpers/databases.js';
import type { issues } from '../src/resources.js';
import { serveTracker } from './helpers/tracker-stores.js';

// `count=estimated` on PostgreSQL (docs/query.md, "Counts on huge tables"): exact up to the
// resource's threshold (10,000 by default), past it the planner's estimate of the same filtered
// query, sent as `X-Total-Count-Estimate` without a `last` link. The tenancy condition is part
// of that query: organization 2 is told an estimate of its own 12,000 issues, never of the
// 52,000 the table holds. The issues are made by one INSERT … SELECT generate_series, then ANALYZE.
// The tracker keeps its issues' count (`keepCount`): a list of all of an organization's issues is
// counted exactly from it, whatever `count` asks; the estimates below are of filtered lists.

const SECRET = 'count-estimate-secret';
const token = (org: number) =>
  new SignJWT({ sub: '1', org, role: 'admin' })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(SECRET));

if (serverAvailable('postgres')) {
  describe('count=estimated past the threshold, on PostgreSQL', () => {
    const tablePrefix = `ce${Math.random().toString(36).slice(2, 8)}_`;
    const store = droppingTables(sqlStore(SERVERS.postgres.url, { tablePrefix }), tablePrefix);
    const tokens: Record<number, string> = {};
    let target: HttpSuiteTarget;

    const get = async (org: number, query: string) => {
      const reply = await fetch(`${target.baseUrl}/issues?${query}`, {
        headers: { authorization: `Bearer ${tokens[org]}` },
      });
      const body = (await reply.json()) as { issues: { id: number }[] };
      expect(reply.status, JSON.stringify(body)).toBe(200);
      const links = Object.fromEntries(
        [...(reply.headers.get('link') ?? '').matchAll(/<[^>]*[?&]page=(\d+)>; rel="(\w+)"/g)].map(([, page, rel]) => [
          rel,
          Number(page),
        ]),
      );
      const header = (name: string) => (reply.headers.has(name) ? Number(reply.headers.get(name)) : undefined);
      return { body, links, exact: header('x-total-count'), estimate: header('x-total-count-estimate') };
    };

    beforeAll(async () => {
      target = await serveTracker(store, SECRET);
      for (const org of [1, 2]) tokens[org] = await token(org);
      const projects: Record<number, number> = {};
      for (const org of [1, 2]) {
        const reply = await fetch(`${target.baseUrl}/projects`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens[org]}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Backlog' }),
        });
        projects[org] = ((await reply.json()) as { project: { id: number } }).project.id;
      }
      // 40,000 issues of organization 1 (one in four done: 10,000), then 12,000 of organization 2 (3,000 done).
      const table = sql.table(`${tablePrefix}issues`);
      await sql`insert into ${table} ("orgId", "projectId", "title", "status", "priority", "createdAt", "updatedAt")
        select case when g <= 40000 then 1 else 2 end,
               case when g <= 40000 then ${projects[1]}::bigint else ${projects[2]}::bigint end,
               'Issue ' || g, case when g % 4 = 0 then 'done' else 'open' end, 3, now(), now()
        from generate_series(1, 52000) as g`.execute(store.db);
      await sql`analyze ${table}`.execute(store.db);
    }, 120_000);
    afterAll(async () => {
      await target?.close();
    });

    it('past 10,000 matches: X-Total-Count-Estimate, no X-Total-Count, no last link, next and prev kept', async () => {
      const first = await get(1, 'count=estimated&filter[status]=open&per_page=10');
      expect(first.exact).toBeUndefined();
      expect(first.estimate).toBeGreaterThan(20_000);
      expect(first.estimate).toBeLessThan(40_000);
      expect(first.links).toEqual({ first: 1, next: 2 });
      expect(first.body.issues).toHaveLength(10);
      const second = await get(1, 'count=estimated&filter[status]=open&per_page=10&page=2');
      expect(second.links).toEqual({ first: 1, prev: 1, next: 3 });
      // The exact count of the same request, for comparison: what count=true pays for.
      const counted = await get(1, 'count=true&filter[status]=open&per_page=10');
      expect(counted.exact).toBe(30_000);
      expect(counted.estimate).toBeUndefined();
      expect(first.body).toEqual(counted.body);
      // Past the end: the estimate still, and no next.
      const past = await get(1, 'count=estimated&filter[status]=open&per_page=100&page=301');
      expect(past.body.issues).toEqual([]);
      expect(past.estimate).toBeGreaterThan(20_000);
      expect(past.links).toEqual({ first: 1, prev: 300 });
    });

    it('the whole list of an organization is counted exactly from its kept count, even when an estimate is asked', async () => {
      for (const count of ['estimated', 'true']) {
        const whole = await get(1, `count=${count}&per_page=100`);
        expect(whole.exact).toBe(40_000);
        expect(whole.estimate).toBeUndefined();
        expect(whole.links).toEqual({ first: 1, next: 2, last: 400 });
        expect((await get(2, `count=${count}&per_page=100&page=121`)).exact).toBe(12_000);
      }
    });

    it('up to 10,000 matches the count is exact, as count=true answers it', async () => {
      const done = await get(1, 'count=estimated&filter[status]=done&per_page=100');
      expect(done.exact).toBe(10_000);
      expect(done.estimate).toBeUndefined();
      expect(done.links).toEqual({ first: 1, next: 2, last: 100 });
      const few = await get(2, 'count=estimated&filter[status]=done');
      expect(few.exact).toBe(3_000);
      expect(few.estimate).toBeUndefined();
    });

    it("estimates the caller's own records only: the tenancy condition is part of the estimated query", async () => {
      const other = await get(2, 'count=estimated&filter[priority]=3&per_page=5');
      expect(other.exact).toBeUndefined();
      // 12,000 issues of organization 2; the table's 52,000, or organization 1's 40,000, would be far off.
      expect(other.estimate).toBeGreaterThan(10_000);
      expect(other.estimate).toBeLessThan(20_000);
      // Its 9,000 open issues are under the threshold: counted exactly, though organization 1 has 30,000 more.
      const open = await get(2, 'count=estimated&filter[status]=open');
      expect(open.exact).toBe(9_000);
      expect(open.estimate).toBeUndefined();
    });

    it('the typed client reads the estimate as its total, marked estimated', async () => {
      const client = resourceClient<typeof issues>({ baseUrl: target.baseUrl, name: 'issue', token: tokens[1] });
      const estimated = await client.index({ count: 'estimated', perPage: 5, filter: { status: 'open' } });
      expect(estimated.estimated).toBe(true);
      expect(estimated.total).toBeGreaterThan(20_000);
      expect(estimated.last).toBeUndefined();
      expect(estimated.next).toBe(2);
      const exact = await client.index({ count: 'estimated', perPage: 5, filter: { status: 'done' } });
      expect(exact).toMatchObject({ total: 10_000, estimated: false, last: 2000 });
    });
  });
}
