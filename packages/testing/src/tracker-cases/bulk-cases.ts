import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { expectProblem } from '../http-client.js';
import { expectErrors } from '../library-cases/library-fixtures.js';
import { expectShape, type IssueJson, type Json, listOf, recordOf, totalOf } from './tracker-records.js';
import { type Org, seedWorld } from './tracker-world.js';

// CONTRACT part 4, "Bulk writes": `POST /issues` with a list creates all or none (errors keyed by
// JSON Pointer), `PATCH /issues` with a list updates, `DELETE /issues?filter[id][]=…` archives;
// ids that are not visible, role and field rules, and entity tags per record refuse the whole
// batch, and nothing changes.

/** `count` new issues of the organization's first project, each titled `<prefix> <n>`. */
function drafts(org: Org, prefix: string, count: number): Json[] {
  return Array.from({ length: count }, (_, n) => ({ projectId: org.projects[0]?.id, title: `${prefix} ${n}` }));
}

/** The issues of a bulk answer, in order, each checked for `role`. */
function issuesOf(reply: { status: number; text: string; body: Json }, role: string): IssueJson[] {
  expect(reply.status, reply.text).toBe(200);
  expect(Object.keys(reply.body)).toEqual(['issues']);
  return (reply.body.issues as unknown[]).map((issue) => expectShape<IssueJson>('issue', role, issue));
}

/** Everything the organization's admin lists of its issues, archived ones too, by id. */
async function everything(org: Org): Promise<Map<number, IssueJson>> {
  const listed = await listOf<IssueJson>(org.admin, 'issue', 'archived=true&sort=id');
  return new Map(listed.map((issue) => [issue.id, issue]));
}

export const bulkCases = (secret: string) =>
  group('bulk writes', (api) => seedWorld(api, secret), {
    async 'bulk create: 200 with every issue in the order sent, each as a show renders it, in the caller’s organization'(
      _api,
      { one, two },
    ) {
      const bug = one.labels[0]?.id as number;
      const sent = [
        { projectId: one.projects[1]?.id, title: 'Second first', priority: 1, labelIds: [bug] },
        ...drafts(one, 'Bulk', 4),
      ];
      const made = issuesOf(await one.member.json('POST', '/issues', { issues: sent }), 'member');
      expect(made.map((issue) => issue.title)).toEqual(sent.map((issue) => issue.title));
      expect(made.every((issue) => issue.orgId === one.id && issue.status === 'open')).toBe(true);
      expect(made[0]).toMatchObject({ priority: 1, labelIds: [bug], projectId: one.projects[1]?.id });
      expect(new Set(made.map((issue) => issue.id)).size).toBe(5);
      for (const issue of made) {
        expect(recordOf<IssueJson>(await one.member.get(`/issues/${issue.id}`), 'issue', 'member')).toEqual(issue);
        expectProblem(await two.admin.get(`/issues/${issue.id}`), 404);
      }
      // One record in the single form is still a single create.
      const single = await one.member.json('POST', '/issues', { issue: drafts(one, 'Single', 1)[0] });
      expect(recordOf<IssueJson>(single, 'issue', 'member').title).toBe('Single 0');
    },

    async 'bulk create: a failure at record 57 of 100 is a 422 keyed /issues/56/…, every invalid record listed, and nothing is stored'(
      _api,
      { one, two },
    ) {
      const before = await totalOf(one.admin, 'issue', 'archived=true');
      const sent = drafts(one, 'Import', 100);
      sent[56] = { projectId: one.projects[0]?.id };
      const failed = await one.member.json('POST', '/issues', { issues: sent });
      expectErrors(failed, { '/issues/56/title': ['is required'] });
      // Several at once: each named; another organization's project does not exist, as a missing one.
      sent[3] = { projectId: two.projects[0]?.id, title: 'Elsewhere' };
      sent[99] = { projectId: one.projects[0]?.id, title: 'x'.repeat(201), status: 'closed' };
      const all = expectProblem(await one.member.json('POST', '/issues', { issues: sent }), 422).errors;
      expect(Object.keys(all).sort()).toEqual([
        '/issues/3/projectId',
        '/issues/56/title',
        '/issues/99/status',
        '/issues/99/title',
      ]);
      expect(all['/issues/3/projectId']).toEqual(['does not exist']);
      expect(await totalOf(one.admin, 'issue', 'archived=true')).toBe(before);
      expect(await totalOf(two.admin, 'issue', 'archived=true')).toBe(two.issues.length);
    },

    async 'bulk create: an empty list, 101 records or an entry that is no object are 422 naming them'(_api, { one }) {
      const before = await totalOf(one.admin, 'issue', 'archived=true');
      expectErrors(await one.member.json('POST', '/issues', { issues: [] }), {
        '/issues': ['must hold at least one record'],
      });
      const many = await one.member.json('POST', '/issues', { issues: drafts(one, 'Many', 101) });
      expect(Object.keys(expectProblem(many, 422).errors)).toEqual(['/issues']);
      const odd = await one.member.json('POST', '/issues', { issues: [drafts(one, 'Ok', 1)[0], 'title'] });
      expect(Object.keys(expectProblem(odd, 422).errors)).toEqual(['/issues/1']);
      expectProblem(await one.viewer.json('POST', '/issues', { issues: drafts(one, 'Viewer', 2) }), 403);
      expect(await totalOf(one.admin, 'issue', 'archived=true')).toBe(before);
    },

    async 'bulk update: each entry updates its issue; an invisible id is 422 /issues/i/id, a field rule 403 naming it; nothing changes'(
      _api,
      { one, two },
    ) {
      const [crash, slow, typo] = one.issues as [IssueJson, IssueJson, IssueJson];
      const done = issuesOf(
        await one.member.json('PATCH', '/issues', {
          issues: [
            { id: typo.id, status: 'done' },
            { id: crash.id, title: 'Crash on start (fixed)', labelIds: [one.labels[0]?.id] },
          ],
        }),
        'member',
      );
      expect(done.map((issue) => issue.id)).toEqual([typo.id, crash.id]);
      expect(done[0]).toMatchObject({ status: 'done', title: typo.title });
      expect(done[1]).toMatchObject({ title: 'Crash on start (fixed)', labelIds: [one.labels[0]?.id] });
      const before = await everything(one);
      const elsewhere = await one.member.json('PATCH', '/issues', {
        issues: [{ id: slow.id, status: 'done' }, { id: two.issues[0]?.id, status: 'done' }, { id: 987654321 }],
      });
      expectErrors(elsewhere, { '/issues/1/id': ['does not exist'], '/issues/2/id': ['does not exist'] });
      const priority = await one.member.json('PATCH', '/issues', {
        issues: [
          { id: slow.id, status: 'done' },
          { id: crash.id, priority: 1 },
        ],
      });
      expect(expectProblem(priority, 403).errors).toEqual({ '/issues/1/priority': ['may not be changed by you'] });
      expectProblem(await one.viewer.json('PATCH', '/issues', { issues: [{ id: slow.id, status: 'done' }] }), 403);
      const twice = await one.admin.json('PATCH', '/issues', { issues: [{ id: slow.id }, { id: slow.id }] });
      expect(Object.keys(expectProblem(twice, 422).errors)).toEqual(['/issues/1/id']);
      expect(await everything(one)).toEqual(before);
      expect((await everything(two)).get(two.issues[0]?.id as number)?.status).toBe('open');
    },

    async 'bulk update: "_etag" is each record’s If-Match; one that is stale refuses the whole batch with 412'(
      _api,
      { one },
    ) {
      const [crash, slow] = one.issues as [IssueJson, IssueJson];
      const tag = async (id: number) => (await one.admin.get(`/issues/${id}`)).headers.get('etag') as string;
      const [crashTag, slowTag] = [await tag(crash.id), await tag(slow.id)];
      await one.admin.json('PATCH', `/issues/${slow.id}`, { issue: { title: 'Slow search, meanwhile' } });
      const before = await everything(one);
      const stale = await one.admin.json('PATCH', '/issues', {
        issues: [
          { id: crash.id, _etag: crashTag, status: 'done' },
          { id: slow.id, _etag: slowTag, status: 'done' },
        ],
      });
      expectProblem(stale, 412);
      expect(await everything(one)).toEqual(before);
      const fresh = await one.admin.json('PATCH', '/issues', {
        issues: [
          { id: crash.id, _etag: crashTag, status: 'done' },
          { id: slow.id, _etag: await tag(slow.id), status: 'done' },
        ],
      });
      expect(issuesOf(fresh, 'admin').map((issue) => issue.status)).toEqual(['done', 'done']);
    },

    async 'bulk update: concurrent batches over the same issues never interleave: each issue ends as one batch left it'(
      _api,
      { one },
    ) {
      const made = issuesOf(await one.member.json('POST', '/issues', { issues: drafts(one, 'Race', 20) }), 'member');
      const ids = made.map((issue) => issue.id);
      for (let round = 0; round < 3; round++) {
        const batch = (order: number[], status: string, priority: number) =>
          one.admin.json('PATCH', '/issues', { issues: order.map((id) => ({ id, status, priority })) });
        const replies = await Promise.all([
          batch(ids, 'in_progress', 1),
          batch([...ids].reverse(), 'done', 2),
          batch(ids.slice(5, 15), 'open', 4),
        ]);
        for (const reply of replies) expect([200, 503], reply.text).toContain(reply.status);
        const now = await everything(one);
        const states = new Set(ids.slice(5, 15).map((id) => `${now.get(id)?.status}/${now.get(id)?.priority}`));
        const outer = new Set([...ids.slice(0, 5), ...ids.slice(15)].map((id) => `${now.get(id)?.status}`));
        expect(states.size, [...states].join(' ')).toBe(1);
        expect(outer.size, [...outer].join(' ')).toBe(1);
        expect(['in_progress/1', 'done/2', 'open/4']).toContain([...states][0]);
      }
    },

    async 'bulk destroy: archives every listed issue (204); an invisible id is 404 naming it; other parameters 400; nothing changes'(
      _api,
      { one, two },
    ) {
      const [crash, slow, typo] = one.issues as [IssueJson, IssueJson, IssueJson];
      const before = await everything(one);
      const missing = await one.admin.send(
        'DELETE',
        `/issues?filter[id][]=${crash.id}&filter[id][]=${two.issues[0]?.id}`,
      );
      expect(expectProblem(missing, 404).detail).toContain(String(two.issues[0]?.id));
      for (const query of [
        `filter[id][]=${crash.id}&sort=id`,
        `filter[id]=${crash.id}`,
        '',
        `filter[id][]=${crash.id}&filter[id][]=${crash.id}`,
      ]) {
        expectProblem(await one.admin.send('DELETE', `/issues${query ? `?${query}` : ''}`), 400);
      }
      expectProblem(await one.member.send('DELETE', `/issues?filter[id][]=${crash.id}`), 403);
      expect(await everything(one)).toEqual(before);
      const gone = await one.admin.send('DELETE', `/issues?filter[id][]=${typo.id}&filter[id][]=${crash.id}`);
      expect(gone.status, gone.text).toBe(204);
      const listed = (await listOf<IssueJson>(one.viewer, 'issue')).map((issue) => issue.id);
      expect(listed).toContain(slow.id);
      expect(listed).not.toContain(crash.id);
      expect(listed).not.toContain(typo.id);
      const archived = await everything(one);
      expect(archived.get(crash.id)?.archivedAt).toBeTypeOf('string');
      expect(archived.get(typo.id)?.archivedAt).toBeTypeOf('string');
    },

    async 'upsert: POST /labels?upsert=name updates the organization’s label of that name, else creates it; never another’s'(
      _api,
      { one, two },
    ) {
      const upsert = (org: Org, body: Json) => org.member.json('POST', '/labels?upsert=name', body);
      const bug = one.labels[0];
      const updated = recordOf<Json>(
        await upsert(one, { label: { name: 'bug', color: '#000000' } }),
        'label',
        'member',
      );
      expect(updated).toEqual({ ...bug, color: '#000000' });
      const made = recordOf<Json>(
        await upsert(one, { label: { name: 'triage', color: '#111111' } }),
        'label',
        'member',
      );
      expect(made).toMatchObject({ name: 'triage', color: '#111111', orgId: one.id });
      const theirs = (await listOf<Json>(two.admin, 'label')).find((label) => label.name === 'bug');
      expect(theirs?.color).toBe('#d73a4a');
      // An upsert that would create needs every required field; the key is required.
      expectErrors(await upsert(one, { label: { name: 'no-color' } }), { color: ['is required'] });
      expectErrors(await upsert(one, { label: { color: '#222222' } }), { name: ['is required to upsert by it'] });
      expectProblem(
        await one.member.json('POST', '/labels?upsert=color', { label: { name: 'x', color: '#333333' } }),
        400,
      );
      expectProblem(
        await one.viewer.json('POST', '/labels?upsert=name', { label: { name: 'bug', color: '#444444' } }),
        403,
      );
      expect((await listOf<Json>(one.admin, 'label')).map((label) => label.name).sort()).toEqual(
        ['bug', 'label-One', 'triage'].sort(),
      );
    },
  });
