// docs/many-to-many.md: what the wire shows of a many-to-many relation, and the join table the
// migrations make.
import { resourceSchemas } from '@resourcery/core/adapter';
import { schemaSql, sqlStore } from '@resourcery/sql';
import { callApi } from '@resourcery/testing';
import { describe, expect, it } from 'vitest';
import { issues, issuesApi, labels } from './many-to-many.js';

describe('issues and labels, many to many', () => {
  it('answers labelIds, include=labels and filter[labels.name] as docs/many-to-many.md shows', async () => {
    const api = issuesApi();
    const call = (method: string, path: string, body?: unknown) => callApi(api, { method, path, body });
    await call('POST', '/labels', { name: 'bug', color: '#d73a4a' });
    await call('POST', '/labels', { name: 'ui', color: '#0e8a16' });
    const created = await call('POST', '/issues', { title: 'Crash', labelIds: [2, 1, 2] });
    expect(created.body).toMatchObject({ issue: { id: 1, title: 'Crash', labelIds: [1, 2] } });
    await call('POST', '/issues', { title: 'Typo' });
    const missing = await call('PATCH', '/issues/2', { labelIds: [3] });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ errors: { labelIds: ['does not exist'] } });
    const bugs = await call('GET', '/issues?filter[labels.name]=bug&include=labels');
    expect(bugs.body).toEqual({
      issues: [
        {
          id: 1,
          title: 'Crash',
          labelIds: [1, 2],
          labels: [
            { id: 1, name: 'bug', color: '#d73a4a' },
            { id: 2, name: 'ui', color: '#0e8a16' },
          ],
        },
      ],
    });
    expect((await call('DELETE', '/labels/1')).status).toBe(204);
    expect((await call('GET', '/issues/1')).body).toMatchObject({ issue: { labelIds: [2] } });
    expect((await call('PATCH', '/issues/1', { labelIds: [] })).body).toMatchObject({ issue: { labelIds: [] } });
  });

  for (const [label, store] of [
    ['memory', () => undefined],
    ['SQLite', () => sqlStore('sqlite::memory:')],
  ] as const) {
    it(`guards an update of labelIds with If-Match, as any other (${label})`, async () => {
      const api = issuesApi(store());
      const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
        callApi(api, { method, path, body, headers });
      await call('POST', '/labels', { name: 'bug', color: '#d73a4a' });
      await call('POST', '/issues', { title: 'Crash', labelIds: [1] });
      const etag = (await call('GET', '/issues/1')).headers.ETag as string;
      const changed = await call('PATCH', '/issues/1', { labelIds: [] }, { 'if-match': etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.ETag).not.toBe(etag);
      expect((await call('PATCH', '/issues/1', { labelIds: [1] }, { 'if-match': etag })).status).toBe(412);
      expect((await call('GET', '/issues/1')).body).toMatchObject({ issue: { labelIds: [] } });
      await api.close();
    });
  }

  it('gives migrations the join table: issue_labels, two cascading foreign keys, unique and indexed both ways', () => {
    const script = schemaSql(resourceSchemas([labels, issues]), 'sqlite');
    expect(script).toContain('CREATE TABLE IF NOT EXISTS "issue_labels"');
    expect(script).toContain('REFERENCES "issues" ("id") ON DELETE CASCADE');
    expect(script).toContain('REFERENCES "labels" ("id") ON DELETE CASCADE');
    expect(script).toContain('"issue_labels_issueId_labelId_key" ON "issue_labels" ("issueId", "labelId")');
    expect(script).toContain('"issue_labels_labelId_issueId_idx" ON "issue_labels" ("labelId", "issueId")');
  });
});
