import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountedStore, type Counter, countedStores } from '../../../packages/sql/test/helpers/counting-store.js';
import { droppingTables } from '../../../packages/sql/test/helpers/databases.js';
import { createApp } from '../src/app.js';

// CONTRACT part 4, "Many-to-many": "an index pays a bounded number of store queries whatever its
// page size". An index of issues with include=labels,assignee is 3 queries, for a page of 1 as
// for a page of 100: the issues (their labelIds read in the same statement, a correlated
// aggregate), their labels by id, their assignees. On the memory store the collections count
// their list and find calls; on SQL, Kysely's `log` counts the statements the database runs.

const SECRET = 'labels-queries-secret';

let token = '';
async function send(baseUrl: string, method: string, path: string, body?: unknown) {
  const reply = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await reply.json()) as Record<string, Record<string, unknown>>;
  expect(reply.status, JSON.stringify(json)).toBe(200);
  return json;
}

/** One user, one project, 5 labels and 100 issues, each assigned and with 2 labels. */
async function seed(baseUrl: string): Promise<void> {
  token = await new SignJWT({ sub: '1', org: 1, role: 'admin' })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(SECRET));
  const { user } = await send(baseUrl, 'POST', '/users', { name: 'Ada', email: 'ada@one.example', role: 'admin' });
  const { project } = await send(baseUrl, 'POST', '/projects', { name: 'Roadmap' });
  const labels: number[] = [];
  for (let n = 0; n < 5; n++) {
    labels.push((await send(baseUrl, 'POST', '/labels', { name: `l${n}`, color: '#00aa00' })).label?.id as number);
  }
  for (let n = 0; n < 100; n++) {
    await send(baseUrl, 'POST', '/issues', {
      projectId: project?.id,
      title: `Issue ${n}`,
      assigneeId: user?.id,
      labelIds: [labels[n % 5], labels[(n + 1) % 5]],
    });
  }
}

function queriesOf(label: string, setup: () => CountedStore): void {
  describe(`include=labels costs a bounded number of queries (${label})`, () => {
    let target: HttpSuiteTarget;
    let counter: Counter;
    let release: (() => Promise<void>) | undefined;
    let close: () => Promise<void>;
    beforeAll(async () => {
      const made = setup();
      counter = made.counter;
      release = made.release;
      const app = createApp(made.store, { secret: SECRET });
      await app.ready();
      target = await serveHttp(app);
      close = () => app.close();
      await seed(target.baseUrl);
    }, 180_000);
    afterAll(async () => {
      await target?.close();
      await close?.();
      await release?.();
    });

    for (const perPage of [1, 100]) {
      it(`an index of ${perPage} issues with include=labels,assignee is 3 queries`, async () => {
        counter.queries = 0;
        counter.statements = [];
        const path = `/issues?per_page=${perPage}&count=false&include=labels,assignee`;
        const { issues } = (await send(target.baseUrl, 'GET', path)) as unknown as {
          issues: { labelIds: number[]; labels: { id: number }[]; assignee: unknown }[];
        };
        expect(counter.queries, counter.statements.join('\n')).toBe(3);
        expect(issues).toHaveLength(perPage);
        for (const issue of issues) {
          expect(issue.labelIds).toHaveLength(2);
          expect(issue.labels.map((label) => label.id)).toEqual(issue.labelIds);
          expect(issue.assignee).not.toBeNull();
        }
      });
    }

    it('an index of 100 issues with their labelIds alone is 1 query; a show with include=labels 2', async () => {
      counter.queries = 0;
      counter.statements = [];
      await send(target.baseUrl, 'GET', '/issues?per_page=100&count=false');
      expect(counter.queries, counter.statements.join('\n')).toBe(1);
      counter.queries = 0;
      counter.statements = [];
      await send(target.baseUrl, 'GET', '/issues/1?include=labels');
      expect(counter.queries, counter.statements.join('\n')).toBe(2);
    });
  });
}

const folder = mkdtempSync(join(tmpdir(), 'resourcery-tracker-queries-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const prefix = () => `lq${Math.random().toString(36).slice(2, 8)}_`;

for (const [label, setup] of countedStores(folder, 'tracker.sqlite', { prefix, dropping: droppingTables })) {
  queriesOf(label, setup);
}
