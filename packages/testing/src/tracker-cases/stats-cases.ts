import { expect } from 'vitest';
import { type CaseGroup, group } from '../http-cases/group.js';
import { expectProblem, type HttpClient } from '../http-client.js';
import { create, type IssueJson, type Json, totalOf } from './tracker-records.js';
import { anonymous } from './tracker-tokens.js';
import { type Org, seedWorld, type World } from './tracker-world.js';

// CONTRACT part 4, "Statistics: GET /api/issues/stats": the index's filters, `q` and `archived`,
// grouped by up to 3 attributes, with counts and exact sums, minima and maxima; tenancy, read
// rules, hidden fields and archive exactly as on the index.

/** The `stats` list of a 200 answer. */
async function statsOf(caller: HttpClient, query = '', path = '/issues/stats'): Promise<Json[]> {
  const reply = await caller.get(query ? `${path}?${query}` : path);
  expect(reply.status, `${path}?${query}: ${reply.text}`).toBe(200);
  expect(Object.keys(reply.body)).toEqual(['stats']);
  expect(Array.isArray(reply.body.stats)).toBe(true);
  return reply.body.stats as Json[];
}

/** Three more `done` issues of the organization: estimates 12.50, 0.05 and none. */
async function doneIssues(org: Org): Promise<IssueJson[]> {
  const [roadmap, only] = org.projects;
  const as = (values: Json) => create<IssueJson>(org.member, 'issue', 'member', { status: 'done', ...values });
  return [
    await as({ projectId: roadmap?.id, title: 'Done A', estimate: '12.50' }),
    await as({ projectId: roadmap?.id, title: 'Done B', estimate: 0.05 }),
    await as({ projectId: only?.id, title: 'Done C', dueDate: '2024-01-02' }),
  ];
}

/** Asserts a 400 whose detail starts by naming `parameter`. */
async function refused(caller: HttpClient, query: string, parameter: string): Promise<string> {
  const reply = await caller.get(`/issues/stats?${query}`);
  const problem = expectProblem(reply, 400);
  expect(problem.detail, query).toMatch(new RegExp(`^${parameter.replace(/[[\]]/g, '\\$&')}(?![\\w])`));
  return reply.text;
}

/** Each case on a world of its own (cases of one group share their records). */
const CASES: Record<string, (api: HttpClient, world: World) => Promise<void>> = {
  async 'stats: grouped counts with exact decimal sums, in code point order; another organization’s issues never count'(
    _api,
    { one, two },
  ) {
    await doneIssues(one);
    const expected = [
      { status: 'done', count: 3, sum: { estimate: '12.55' } },
      { status: 'in_progress', count: 1, sum: { estimate: '3.50' } },
      { status: 'open', count: 2, sum: { estimate: null } },
    ];
    for (const caller of [one.viewer, one.member, one.admin]) {
      expect(await statsOf(caller, 'group=status&sum=estimate')).toEqual(expected);
    }
    expect(await statsOf(two.viewer, 'group=status&sum=estimate')).toEqual(expected.slice(1));
    // Each count is the index's X-Total-Count for that value.
    for (const entry of expected) {
      expect(await totalOf(one.viewer, 'issue', `filter[status]=${entry.status}`)).toBe(entry.count);
    }
    const byPriority = await statsOf(one.viewer, 'group=status,priority&sum=priority,estimate');
    expect(byPriority).toEqual([
      { status: 'done', priority: 3, count: 3, sum: { priority: 9, estimate: '12.55' } },
      { status: 'in_progress', priority: 4, count: 1, sum: { priority: 4, estimate: '3.50' } },
      { status: 'open', priority: 2, count: 1, sum: { priority: 2, estimate: null } },
      { status: 'open', priority: 3, count: 1, sum: { priority: 3, estimate: null } },
    ]);
  },

  async 'stats: without group one entry for all (count 0 when nothing matches); null groups first; min and max canonical'(
    _api,
    { one },
  ) {
    expect(await statsOf(one.viewer)).toEqual([{ count: 3 }]);
    expect(await statsOf(one.viewer, 'filter[title]=nothing&sum=estimate&max=dueDate')).toEqual([
      { count: 0, sum: { estimate: null }, max: { dueDate: null } },
    ]);
    expect(await statsOf(one.viewer, 'filter[title]=nothing&group=status')).toEqual([]);
    await doneIssues(one);
    const byAssignee = await statsOf(one.viewer, 'group=assigneeId');
    expect(byAssignee.map((entry) => [entry.assigneeId, entry.count])).toEqual([
      [null, 4],
      [one.users[0]?.id, 1],
      [one.users[1]?.id, 1],
    ]);
    const byDue = await statsOf(one.viewer, 'group=dueDate&min=estimate,createdAt&max=estimate,dueDate');
    expect(byDue.map((entry) => [entry.dueDate, entry.count])).toEqual([
      [null, 4],
      ['2024-01-02', 1],
      ['2024-06-30', 1],
    ]);
    expect(byDue[0]?.min).toMatchObject({ estimate: '0.05' });
    expect(byDue[0]?.max).toEqual({ estimate: '12.50', dueDate: null });
    expect((byDue[0]?.min as Json | undefined)?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(byDue[0]?.min).toMatchObject({ createdAt: one.issues[0]?.createdAt });
    expect(byDue[2]).toEqual({
      dueDate: '2024-06-30',
      count: 1,
      min: { estimate: '3.50', createdAt: one.issues[1]?.createdAt },
      max: { estimate: '3.50', dueDate: '2024-06-30' },
    });
  },

  async 'stats: filters (operators, relation filters) and archive apply as on the index'(_api, { one, two }) {
    const done = await doneIssues(one);
    await doneIssues(two);
    expect(await statsOf(one.viewer, 'filter[project.name]=Roadmap&group=status')).toEqual([
      { status: 'done', count: 2 },
      { status: 'open', count: 2 },
    ]);
    // Organization 2's project of the same name never matches through.
    expect(await statsOf(one.viewer, 'filter[project.name]=Project%20Two%20Only')).toEqual([{ count: 0 }]);
    expect(await statsOf(one.viewer, 'filter[priority][gte]=3&filter[estimate][null]=false&sum=estimate')).toEqual([
      { count: 3, sum: { estimate: '16.05' } },
    ]);
    expect(await statsOf(one.viewer, `filter[assignee.name]=${encodeURIComponent(one.users[1]?.name ?? '')}`)).toEqual([
      { count: 1 },
    ]);
    const archivedOne = done[0] as IssueJson;
    const deleted = await one.admin.send('DELETE', `/issues/${archivedOne.id}`);
    expect(deleted.status, deleted.text).toBe(204);
    expect(await statsOf(one.viewer, 'group=status&sum=estimate')).toContainEqual({
      status: 'done',
      count: 2,
      sum: { estimate: '0.05' },
    });
    expect(await statsOf(one.viewer, 'archived=true&group=status&sum=estimate')).toContainEqual({
      status: 'done',
      count: 3,
      sum: { estimate: '12.55' },
    });
    expect(await statsOf(one.viewer, 'archived=true&filter[archivedAt][null]=false&sum=estimate')).toEqual([
      { count: 1, sum: { estimate: '12.50' } },
    ]);
    expect(await statsOf(one.viewer)).toEqual([{ count: await totalOf(one.viewer, 'issue') }]);
  },

  async 'stats: a hidden field (email) is 400 exactly as one that does not exist; admins group by it'(_api, { one }) {
    const queries = [
      '/users/stats?group=FIELD',
      '/users/stats?group=role,FIELD',
      '/users/stats?filter[FIELD][prefix]=ada&group=role',
      '/issues/stats?filter[assignee.FIELD]=ada.lovelace%40one.example',
    ];
    for (const caller of [one.member, one.viewer]) {
      for (const query of queries) {
        const hidden = await caller.get(query.replaceAll('FIELD', 'email'));
        const unknown = await caller.get(query.replaceAll('FIELD', 'emayl'));
        expectProblem(unknown, 400);
        expectProblem(hidden, 400);
        expect(hidden.text.replaceAll('email', 'emayl'), query).toBe(unknown.text);
      }
      expect(await statsOf(caller, 'group=role', '/users/stats')).toEqual([
        { role: 'admin', count: 1 },
        { role: 'member', count: 1 },
        { role: 'viewer', count: 1 },
      ]);
    }
    const byEmail = await statsOf(one.admin, 'group=email', '/users/stats');
    expect(byEmail.map((entry) => entry.email)).toEqual(one.users.map((user) => user.email).sort());
  },

  async 'stats: parameters it does not take, and unknown or unfit attributes, are 400 naming them'(_api, { one }) {
    for (const parameter of ['sort', 'page', 'per_page', 'include', 'fields', 'after', 'count']) {
      const value = parameter === 'page' || parameter === 'per_page' ? '2' : parameter === 'count' ? 'true' : 'status';
      await refused(one.viewer, `group=status&${parameter}=${value}`, parameter);
    }
    await refused(one.viewer, 'group=status,priority,projectId,assigneeId', 'group');
    await refused(one.viewer, 'group=body', 'group');
    await refused(one.viewer, 'group=nope', 'group');
    await refused(one.viewer, 'group=', 'group');
    await refused(one.viewer, 'group=status,status', 'group');
    await refused(one.viewer, 'sum=title', 'sum');
    await refused(one.viewer, 'sum=dueDate', 'sum');
    await refused(one.viewer, 'min=status', 'min');
    await refused(one.viewer, 'max=nope', 'max');
    await refused(one.viewer, 'filter[nope]=1', 'filter[nope]');
    await refused(one.viewer, 'filter[priority]=high', 'filter[priority]');
    const post = await one.admin.send('POST', '/issues/stats');
    expectProblem(post, 405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    // Projects do not serve statistics: `stats` is an id that cannot exist there.
    expectProblem(await one.viewer.get('/projects/stats'), 404);
    expect((await anonymous(_api).get('/issues/stats')).status).toBe(401);
  },

  async 'stats: more than 1,000 groups is 400 naming group; 1,000 are answered'(_api, { one }) {
    const [project] = one.projects;
    const day = (n: number) => new Date(Date.UTC(2020, 0, 1 + n)).toISOString().slice(0, 10);
    for (let start = 0; start < 1000; start += 25) {
      await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          create(one.member, 'issue', 'member', {
            projectId: project?.id,
            title: `Day ${start + i}`,
            dueDate: day(start + i),
          }),
        ),
      );
    }
    // 1,000 days plus the seeded 2024-06-30 and the issues without a date: 1,002 groups.
    const text = await refused(one.viewer, 'group=dueDate', 'group');
    expect(text).toContain('1000');
    const answered = await statsOf(
      one.viewer,
      'group=dueDate&filter[dueDate][null]=false&filter[dueDate][lt]=2024-01-01',
    );
    expect(answered.length).toBe(1000);
    expect(answered[0]).toEqual({ dueDate: day(0), count: 1 });
    expect(answered[999]).toEqual({ dueDate: day(999), count: 1 });
  },
};

/**
 * The statistics groups of the tracker suite: one per case, each seeding its own world.
 *
 * @example
 * ```ts
 * const groups = statsCases(DEVELOPMENT_SECRET); // one CaseGroup per case
 * ```
 */
export const statsCases = (secret: string): CaseGroup[] =>
  Object.entries(CASES).map(([name, run], i) =>
    group(`statistics ${i + 1}`, (api) => seedWorld(api, secret), { [name]: run }),
  );
