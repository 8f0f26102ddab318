// The bulk examples of docs/client.md against the tasks and tags of tasks.ts, over real HTTP.
import { resourceClient } from '@resourcery/client';
import { memoryStore } from '@resourcery/core';
import { resourcery } from '@resourcery/express';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importTasks, planAndClear, saveTag } from './bulk-client.js';
import { tags, tasks } from './tasks.js';

let target: HttpSuiteTarget;
beforeAll(async () => {
  target = await serveHttp(express().use('/api', resourcery({ resources: [tasks, tags], store: memoryStore() })));
});
afterAll(() => target.close());

const taskClient = () => resourceClient<typeof tasks>({ baseUrl: target.baseUrl, name: 'task' });

describe('bulk writes and upserts (docs/client.md)', () => {
  it('creates, changes and destroys several tasks per request', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    await planAndClear(target.baseUrl);
    const sent = fetch.mock.calls.map(([url, init]) => `${init?.method} ${new URL(String(url)).pathname}`);
    fetch.mockRestore();
    expect(sent).toEqual(['POST /api/tasks', 'GET /api/tasks/1', 'PATCH /api/tasks', 'DELETE /api/tasks']);
    expect((await taskClient().index()).records).toEqual([]);
  });

  it('stores nothing when a task is refused, and says which by JSON Pointer', async () => {
    expect(await importTasks(['Plan', '', 'Ship'], target.baseUrl)).toEqual({
      '/tasks/1/title': ['must be between 1 and 200 characters long'],
    });
    expect((await taskClient().index()).total).toBe(0);
    expect(await importTasks(['Plan', 'Ship'], target.baseUrl)).toEqual({});
    expect((await taskClient().index({ sort: ['id'] })).records.map((task) => task.title)).toEqual(['Plan', 'Ship']);
  });

  it('saves a tag by its name: created the first time, updated after', async () => {
    const created = await saveTag('bug', '#d73a4a', target.baseUrl);
    const updated = await saveTag('bug', '#b60205', target.baseUrl);
    expect(updated).toEqual({ id: created.id, name: 'bug', color: '#b60205' });
  });
});
