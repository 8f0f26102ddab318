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

// CONTRACT part 4, "Bulk writes", as a team's hooks meet them, on every store: an after hook that
// throws on one record of a batch, once records are written, rolls the whole batch back. And the
// database sees one multi-row INSERT for a bulk create, its foreign keys checked once per id.

const SECRET = 'bulk-writes-secret';
/** The record a hook refuses: the 57th of a batch of 100. */
const REFUSED = 'Import 56';

function refuse(title: unknown): void {
  if (title === REFUSED) throw new HttpError(409, 'conflict', { detail: `${REFUSED} is refused by a hook` });
}

/** A team's hooks: after hooks on the creates and updates of issues. */
const hooks: Hooks<unknown> = {
  after: {
    create: (ctx) => refuse(ctx.resource.name === 'issue' && (ctx.record as { title?: unknown }).title),
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

    it('an after hook that throws on record 57 of 100 creates is that record’s 409, and nothing is stored', async () => {
      const before = await total();
      const reply = await send(target.baseUrl, 'POST', '/issues', { issues: drafts(project, 100) });
      expect(reply.status, JSON.stringify(reply.body)).toBe(409);
      expect(reply.body.detail).toBe(`/issues/56: ${REFUSED} is refused by a hook`);
      expect(await total()).toBe(before);
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
      // rows, the join rows (and MySQL's search words).
      const log = counter.statements.join('\n');
      expect(counter.queries, log).toBeLessThanOrEqual(10);
      if (label !== 'memory store')
        expect(
          counter.statements.filter((sql) => /insert into .\w*issues. /i.test(sql)),
          log,
        ).toHaveLength(1);
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
