import 'reflect-metadata';
import { createApi, defineResource, memoryStore, type ServerSet } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { callApi } from '@resourcery/testing';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Length } from 'class-validator';
import { describe, expect, it } from 'vitest';

// The statistics action beyond the tracker suite: its declaration, its route next to `/:id`
// (uuid ids included), which hooks and steps it runs, and a store without `aggregate`.

class Task {
  @IsString() @Length(1, 100) title!: string;
  @IsIn(['todo', 'done']) state!: string;
  @IsOptional() @IsInt() points?: number | null;
}

class Note {
  @IsUUID() id!: ServerSet<string>;
  @IsString() @Length(1, 100) text!: string;
  @IsInt() stars!: number;
}

const tasksWith = (options: Record<string, unknown>) =>
  defineResource({ name: 'task', model: Task, stats: true, ...options } as never);

async function seeded(resource = tasksWith({}), store: Store = memoryStore()) {
  const api = createApi({ resources: [resource], store, logError: () => {} });
  for (const [title, state, points] of [
    ['a', 'todo', 1],
    ['b', 'done', 2],
    ['c', 'done', null],
  ] as const) {
    const reply = await callApi(api, { method: 'POST', path: '/tasks', body: { title, state, points } });
    expect(reply.status).toBe(200);
  }
  return api;
}

describe('statistics', () => {
  it('are off unless declared: /<plural>/stats is then an id that cannot exist', async () => {
    const api = await seeded(defineResource({ name: 'task', model: Task }) as never);
    expect((await callApi(api, { method: 'GET', path: '/tasks/stats' })).status).toBe(404);
    const served = await seeded();
    const reply = await callApi(served, { method: 'GET', path: '/tasks/stats?group=state&sum=points' });
    expect(reply.body).toEqual({
      stats: [
        { state: 'done', count: 2, sum: { points: 2 } },
        { state: 'todo', count: 1, sum: { points: 1 } },
      ],
    });
    expect((await callApi(served, { method: 'GET', path: '/tasks/1' })).status).toBe(200);
    const head = await callApi(served, { method: 'OPTIONS', path: '/tasks/stats' });
    expect(head.headers.Allow).toBe('GET, HEAD, OPTIONS');
  });

  it('route before /:id on uuid ids too (no uuid is spelled "stats")', async () => {
    const notes = defineResource({ name: 'note', model: Note, stats: { sum: ['stars'], max: ['stars'] } });
    const api = createApi({ resources: [notes], store: memoryStore(), logError: () => {} });
    await callApi(api, { method: 'POST', path: '/notes', body: { text: 'x', stars: 4 } });
    await callApi(api, { method: 'POST', path: '/notes', body: { text: 'y', stars: 5 } });
    const reply = await callApi(api, { method: 'GET', path: '/notes/stats?sum=stars&max=stars' });
    expect(reply.body).toEqual({ stats: [{ count: 2, sum: { stars: 9 }, max: { stars: 5 } }] });
    expect((await callApi(api, { method: 'GET', path: '/notes/stats?group=text' })).status).toBe(400);
  });

  it('run the before, around and after hooks of `stats` (and `all`), and the scope step', async () => {
    const seen: string[] = [];
    const tasks = tasksWith({
      hooks: {
        before: { all: (ctx: { action: string }) => void seen.push(`all:${ctx.action}`) },
        after: {
          stats: (ctx: { result: unknown; stats: { group: string[] } }) => {
            seen.push(`after:${ctx.stats.group.join(',')}`);
            ctx.result = { ...(ctx.result as object), note: 'hooked' };
          },
        },
      },
      steps: { scope: () => ({ state: 'done' }) },
    });
    const api = await seeded(tasks);
    seen.length = 0;
    const reply = await callApi(api, { method: 'GET', path: '/tasks/stats?group=state' });
    expect(reply.body).toEqual({ stats: [{ state: 'done', count: 2 }], note: 'hooked' });
    expect(seen).toEqual(['all:stats', 'after:state']);
  });

  it('check the declaration, and refuse a store without Collection.aggregate', () => {
    expect(() => tasksWith({ stats: { sum: ['title'] } })).toThrow(/stats.sum names "title"/);
    expect(() => tasksWith({ stats: { group: ['nope'] } })).toThrow(/stats.group names "nope"/);
    const store = memoryStore();
    const bare: Store = {
      collection: (schema) => {
        const { aggregate: _aggregate, ...rest } = store.collection(schema) as never as Record<string, unknown>;
        return rest as never;
      },
      transaction: (work) => store.transaction(work),
    };
    expect(() => createApi({ resources: [tasksWith({})], store: bare })).toThrow(/no Collection.aggregate/);
  });
});
