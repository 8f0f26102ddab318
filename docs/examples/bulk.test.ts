// docs/bulk.md's examples, on memory and SQLite: bulk creates, updates and destroys all or none,
// errors keyed by JSON Pointer, and upserts by a unique key.
import { createApi, memoryStore } from '@resourcery/core';
import type { Store } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import { callApi } from '@resourcery/testing';
import { describe, expect, it } from 'vitest';
import { tags, tasks } from './bulk.js';

const stores: Record<string, () => Store & { close?(): Promise<void> }> = {
  memory: () => memoryStore(),
  SQLite: () => sqlStore('sqlite::memory:'),
};

type Body = Record<string, unknown> & { errors?: Record<string, string[]> };

for (const [label, open] of Object.entries(stores)) {
  describe(`bulk writes (${label})`, () => {
    const start = () => {
      const store = open();
      const api = createApi({ resources: [tasks, tags], store });
      const call = async (method: string, path: string, body?: unknown) => {
        const reply = await callApi(api, { method, path, body });
        return { status: reply.status, body: reply.body as Body };
      };
      return { call, close: () => store.close?.() };
    };

    it('creates, updates and destroys tasks all or none', async () => {
      const { call, close } = start();
      try {
        const made = await call('POST', '/tasks', { tasks: [{ title: 'Write' }, { title: 'Test', done: true }] });
        expect(made.status).toBe(200);
        const [write, test] = made.body.tasks as { id: number; title: string; done: boolean }[];
        expect([write?.done, test?.done]).toEqual([false, true]);
        // One invalid record: 422 naming it, and nothing is stored.
        const refused = await call('POST', '/tasks', { tasks: [{ title: 'Ship' }, { title: '' }] });
        expect(refused.status).toBe(422);
        expect(refused.body.errors).toEqual({ '/tasks/1/title': ['must be between 1 and 200 characters long'] });
        expect(((await call('GET', '/tasks')).body.tasks as unknown[]).length).toBe(2);
        const updated = await call('PATCH', '/tasks', { tasks: [{ id: write?.id, done: true }] });
        expect((updated.body.tasks as { done: boolean }[])[0]?.done).toBe(true);
        const missing = await call('PATCH', '/tasks', { tasks: [{ id: write?.id, done: false }, { id: 99 }] });
        expect(missing.body.errors).toEqual({ '/tasks/1/id': ['does not exist'] });
        expect((await call('DELETE', `/tasks?filter[id][]=${write?.id}&filter[id][]=${test?.id}`)).status).toBe(204);
        expect((await call('GET', '/tasks')).body.tasks).toEqual([]);
      } finally {
        await close();
      }
    });

    it('upserts tags by name; a name taken twice in a batch, or by a stored tag, is named', async () => {
      const { call, close } = start();
      try {
        const made = await call('POST', '/tags?upsert=name', { tag: { name: 'bug', color: '#d73a4a' } });
        const again = await call('POST', '/tags?upsert=name', { tag: { name: 'bug', color: '#000000' } });
        expect(again.body.tag).toEqual({ ...(made.body.tag as object), color: '#000000' });
        expect((await call('POST', '/tags?upsert=name', { tag: { name: 'new' } })).body.errors).toEqual({
          color: ['is required'],
        });
        // Without upsert, a taken name is the create's 422; in a batch, it names the records.
        expect((await call('POST', '/tags', { tag: { name: 'bug', color: '#111111' } })).status).toBe(422);
        const red = { color: '#ff0000' };
        const twice = await call('POST', '/tags', {
          tags: [
            { name: 'a', ...red },
            { name: 'b', ...red },
            { name: 'a', ...red },
          ],
        });
        expect(twice.body.errors).toEqual({ '/tags/2/name': ['is already taken (by /tags/0)'] });
        const stored = await call('POST', '/tags', {
          tags: [
            { name: 'c', ...red },
            { name: 'bug', ...red },
          ],
        });
        expect(stored.body.errors).toEqual({ '/tags/1/name': ['is already taken'] });
        // A list upserts each tag.
        const both = await call('POST', '/tags?upsert=name', {
          tags: [
            { name: 'bug', ...red },
            { name: 'c', ...red },
          ],
        });
        expect((both.body.tags as { name: string; color: string }[]).map((tag) => `${tag.name} ${tag.color}`)).toEqual([
          'bug #ff0000',
          'c #ff0000',
        ]);
        expect(((await call('GET', '/tags')).body.tags as unknown[]).length).toBe(2);
      } finally {
        await close();
      }
    });
  });
}
