// An archived record keeps its unique values (a new record cannot take them, so a restore never
// collides), and comes back with PATCH ?archived=true {"archivedAt": null}; on memory and SQLite.
import { createApi, defineResource, memoryStore } from '@resourcery/core';
import type { Store } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import { callApi } from '@resourcery/testing';
import { describe, expect, it } from 'vitest';
import { Tag, tags } from './archive.js';

const stores: Record<string, () => Store & { close?(): Promise<void> }> = {
  memory: () => memoryStore(),
  SQLite: () => sqlStore('sqlite::memory:'),
};

for (const [label, open] of Object.entries(stores)) {
  describe(`archive (${label})`, () => {
    it('an archived tag keeps its name taken; restored, it is back as it was', async () => {
      const store = open();
      try {
        const api = createApi({ resources: [tags], store });
        const call = (method: string, path: string, body?: unknown) => callApi(api, { method, path, body });
        const bug = ((await call('POST', '/tags', { name: 'bug' })).body as { tag: { id: number } }).tag;
        expect((await call('DELETE', `/tags/${bug.id}`)).status).toBe(204);
        expect((await call('GET', `/tags/${bug.id}`)).status).toBe(404);
        // The unique index covers every row: the archived tag's name is still taken.
        const again = await call('POST', '/tags', { name: 'bug' });
        expect(again.status).toBe(422);
        expect(again.body).toMatchObject({ errors: { name: ['is already taken'] } });
        const restored = await call('PATCH', `/tags/${bug.id}?archived=true`, { archivedAt: null });
        expect(restored.status).toBe(200);
        expect(restored.body).toEqual({ tag: { id: bug.id, name: 'bug', archivedAt: null } });
        expect(((await call('GET', '/tags')).body as { tags: unknown[] }).tags).toHaveLength(1);
      } finally {
        await store.close?.();
      }
    });
  });
}

describe('a restore is an update', () => {
  it('runs the update hooks, which see archivedAt: null in the input', async () => {
    const seen: unknown[] = [];
    const watched = defineResource({
      ...tags.options,
      model: Tag,
      name: 'tag',
      hooks: { after: { update: (ctx) => void seen.push({ ...ctx.input }) } },
    });
    const api = createApi({ resources: [watched], store: memoryStore() });
    const call = (method: string, path: string, body?: unknown) => callApi(api, { method, path, body });
    await call('POST', '/tags', { name: 'ui' });
    await call('DELETE', '/tags/1');
    expect((await call('PATCH', '/tags/1?archived=true', { archivedAt: null, name: 'UI' })).status).toBe(200);
    expect(seen).toEqual([{ archivedAt: null, name: 'UI' }]);
  });
});
