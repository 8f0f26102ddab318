import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Hooks, HttpError } from '@resourcery/core';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountedStore, type Counter, countedStores } from '../../../packages/sql/test/helpers/counting-store.js';
import { droppingTables } from '../../../packages/sql/test/helpers/databases.js';
import { createApp } from '../src/app.js';
import { comments } from '../src/resources.js';

// CONTRACT part 4, "Bulk writes", as a team's hooks meet them, on every store: an after hook that
// throws on one record of a batch, once records are written, rolls the whole batch back. And the
// database sees one multi-row INSERT for a bulk create, its foreign keys checked once per id.

const SECRET = 'bulk-writes-secret';
/** The record a hook refuses: the 57th of a batch of 100. */
const REFUSED = 'Import 56';

function refuse(title: unknown): void {
  if (title === REFUSED) throw new HttpError(409, 'conflict', { detail: `${REFUSED} is refused by a hook` });
}

/**
 * A team's hooks: after hooks on the creates and updates of issues; an issue titled `Audited …`
 * gets a comment written by the hook (an audit trail), in the request's transaction.
 */
const hooks: Hooks<unknown> = {
  after: {
    create: async (ctx) => {
      if (ctx.resource.name !== 'issue') return;
      const record = ctx.record as { id: number; orgId: number; title: string };
      if (record.title.startsWith('Audited')) {
        await ctx
          .collectionOf(comments)
          .create({ orgId: record.orgId, issueId: record.id, authorId: 1, body: `created ${record.title}` });
      }
      refuse(record.title);
    },
    update: (ctx) => {
      const record = ctx.record as { title?: unknown; status?: unknown };
      if (record.status === 'done') refuse(record.title);
    },
  },
};

let token = '';
async function send(baseUrl: string, method: string, path: string, body?: unknown) {
  const reply = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
}

function drafts(projectId: unknown, count: number, more: Record<string, unknown> = {}) {
  return Array.from({ length: count }, (_, n) => ({ projectId, title: `Import ${n}`, ...more }));
}

function bulkOf(label: string, setup: () => CountedStore): void {
  describe(`bulk writes with a team's hooks (${label})`, () => {
    let target: HttpSuiteTarget;
    let counter: Counter;
    let release: (() => Promise<void>) | undefined;
    let close: () => Promise<void>;
    let project: unknown;
    let labels: unknown[];
    let user: unknown;
    const total = async () => {
      const reply = await fetch(`${target.baseUrl}/issues?per_page=1&archived=true`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return Number(reply.headers.get('x-total-count'));
    };
    beforeAll(async () => {
      const made = setup();
      counter = made.counter;
      release = made.release;
      const app = createApp(made.store, { secret: SECRET, hooks });
      await app.ready();
      target = await serveHttp(app);
      close = () => app.close();
      token = await new SignJWT({ sub: '1', org: 1, role: 'admin' })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(SECRET));
      user = (
        await send(target.baseUrl, 'POST', '/users', { user: { name: 'Ada', email: 'a@one.example', role: 'admin' } })
      ).body.user;
      project = (
        (await send(target.baseUrl, 'POST', '/projects', { project: { name: 'Roadmap' } })).body.project as {
          id: unknown;
        }
      ).id;
      labels = [];
      for (const name of ['bug', 'ui']) {
        const made = await send(target.baseUrl, 'POST', '/labels', { label: { name, color: '#00aa00' } });
        labels.push((made.body.label as { id: unknown }).id);
      }
    }, 120_000);
    afterAll(async () => {
      await target?.close();
      await close?.();
      await release?.();
    });

    it('an after hook that throws on record 57 of 100 creates is that record’s 409, and nothing is stored, audit rows included', async () => {
      const before = await total();
      const audited = drafts(project, 100).map((draft, n) => (n < 10 ? { ...draft, title: `Audited ${n}` } : draft));
      const reply = await send(target.baseUrl, 'POST', '/issues', { issues: audited });
      expect(reply.status, JSON.stringify(reply.body)).toBe(409);
      expect(reply.body.detail).toBe(`/issues/56: ${REFUSED} is refused by a hook`);
      expect(await total()).toBe(before);
      expect((await send(target.baseUrl, 'GET', '/comments?per_page=100')).body.comments).toEqual([]);
      // Without the refused record, the issues and their audit rows are all there.
      const kept = await send(target.baseUrl, 'POST', '/issues', { issues: audited.slice(0, 50) });
      expect(kept.status, JSON.stringify(kept.body)).toBe(200);
      expect(await total()).toBe(before + 50);
      const written = (await send(target.baseUrl, 'GET', '/comments?per_page=100')).body.comments as unknown[];
      expect(written).toHaveLength(10);
    });

    it('a bulk create of 100 issues with labels is one multi-row INSERT (and one for the join rows)', async () => {
      const titles = drafts(project, 100, { assigneeId: (user as { id: unknown }).id, labelIds: labels }).map(
        (draft, n) => ({
          ...draft,
          title: `Bulk ${n}`,
        }),
      );
      counter.queries = 0;
      counter.statements = [];
      const reply = await send(target.baseUrl, 'POST', '/issues', { issues: titles });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      const issues = reply.body.issues as { title: string; labelIds: unknown[] }[];
      expect(issues.map((issue) => issue.title)).toEqual(titles.map((draft) => draft.title));
      expect(issues.every((issue) => issue.labelIds.length === 2)).toBe(true);
      // Whatever the batch's size: the transaction, a lookup per distinct foreign key value, the
      // rows, the join rows (and MySQL's search words), and the issues' changes for live events:
      // the lock that numbers them in commit order (PostgreSQL, MariaDB) and one multi-row INSERT.
      const log = counter.statements.join('\n');
      expect(counter.queries, log).toBeLessThanOrEqual(12);
      if (label !== 'memory store')
        expect(
          counter.statements.filter((sql) => /insert into .\w*resourcery_changes. /i.test(sql)),
          log,
        ).toHaveLength(1);
      if (label !== 'memory store')
        expect(
          counter.statements.filter((sql) => /insert into .\w*issues. /i.test(sql)),
          log,
        ).toHaveLength(1);
    });

    it('the foreign keys and label ids of a bulk create are looked up once per relation, however many ids; another organization’s are 422', async () => {
      const made = async (path: string, name: string, body: Record<string, unknown>, as = token) => {
        const saved = token;
        token = as;
        const reply = await send(target.baseUrl, 'POST', path, { [name]: body });
        token = saved;
        expect(reply.status, JSON.stringify(reply.body)).toBe(200);
        return (reply.body[name] as { id: number }).id;
      };
      const ids = { projects: [] as number[], users: [] as number[], labels: [] as number[] };
      for (let n = 0; n < 5; n++) {
        ids.projects.push(await made('/projects', 'project', { name: `Spread ${n}` }));
        ids.users.push(
          await made('/users', 'user', { name: `Dev ${n}`, email: `dev${n}@one.example`, role: 'member' }),
        );
        ids.labels.push(await made('/labels', 'label', { name: `spread-${n}`, color: '#0000aa' }));
      }
      const other = await new SignJWT({ sub: '1', org: 2, role: 'admin' })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(SECRET));
      const elsewhere = {
        projectId: await made('/projects', 'project', { name: 'Elsewhere' }, other),
        assigneeId: await made('/users', 'user', { name: 'Bo', email: 'bo@two.example', role: 'member' }, other),
        labelId: await made('/labels', 'label', { name: 'elsewhere', color: '#aa0000' }, other),
      };
      const sent = Array.from({ length: 100 }, (_, n) => ({
        projectId: ids.projects[n % 5],
        title: `Spread ${n}`,
        assigneeId: ids.users[(n * 3) % 5],
        labelIds: [ids.labels[n % 5], ids.labels[(n + 2) % 5]],
      }));
      counter.queries = 0;
      counter.statements = [];
      const reply = await send(target.baseUrl, 'POST', '/issues', { issues: sent });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      const log = counter.statements.join('\n');
      // (The memory store's transactions are not counted.)
      for (const table of label === 'memory store' ? [] : ['projects', 'users', 'labels']) {
        const lookups = new RegExp(`^select .* from ["\`]?\\w*${table}["\`]? `, 'i');
        expect(
          counter.statements.filter((statement) => lookups.test(statement)),
          log,
        ).toHaveLength(1);
      }
      const bad = sent.map((entry) => ({ ...entry }));
      Object.assign(bad[10] as object, { projectId: elsewhere.projectId });
      Object.assign(bad[20] as object, { assigneeId: elsewhere.assigneeId });
      Object.assign(bad[30] as object, { labelIds: [ids.labels[0], elsewhere.labelId] });
      const before = await total();
      const refused = await send(target.baseUrl, 'POST', '/issues', { issues: bad });
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expect(refused.body.errors).toEqual({
        '/issues/10/projectId': ['does not exist'],
        '/issues/20/assigneeId': ['does not exist'],
        '/issues/30/labelIds': ['does not exist'],
      });
      expect(await total()).toBe(before);
    });

    it('an after hook that throws on the 57th record of a bulk update rolls back the 56 written before it', async () => {
      const made = await send(target.baseUrl, 'POST', '/issues', {
        issues: drafts(project, 100).map((draft) => ({ ...draft, title: draft.title.replace('Import', 'Open') })),
      });
      const ids = (made.body.issues as { id: number }[]).map((issue) => issue.id);
      const entries = ids.map((id, n) => ({ id, status: 'done', title: `Import ${n}` }));
      const reply = await send(target.baseUrl, 'PATCH', '/issues', { issues: entries });
      expect(reply.status, JSON.stringify(reply.body)).toBe(409);
      expect(reply.body.detail).toBe(`/issues/56: ${REFUSED} is refused by a hook`);
      const done = await send(target.baseUrl, 'GET', '/issues?per_page=100&filter[status]=done');
      expect(done.body.issues).toEqual([]);
    });
  });
}

const folder = mkdtempSync(join(tmpdir(), 'resourcery-tracker-bulk-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const prefix = () => `bw${Math.random().toString(36).slice(2, 8)}_`;

for (const [label, setup] of countedStores(folder, 'tracker.sqlite', { prefix, dropping: droppingTables })) {
  bulkOf(label, setup);
}
