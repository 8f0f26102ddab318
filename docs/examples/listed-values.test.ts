// Listed values are refused by the API (422, the validation's message) and by the store itself:
// a raw store transaction, and a step that writes past validation (422 naming the field).
import { createApi, defineResource } from '@resourcery/core';
import { compiledResource } from '@resourcery/core/adapter';
import { createTableSql, sqlStore } from '@resourcery/sql';
import { callApi } from '@resourcery/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { Size, Task, tasks } from './listed-values.js';

const stores: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

describe('listed values', () => {
  it('are a CHECK named <table>_<field>_check', () => {
    const ddl = createTableSql(compiledResource(tasks).schema, 'postgres').join('\n');
    expect(ddl).toContain(`CONSTRAINT "tasks_status_check" CHECK ("status" IN ('open', 'in_progress', 'done'))`);
    expect(ddl).toContain(`CONSTRAINT "tasks_size_check" CHECK ("size" IN (1, 3))`);
  });

  it('refuses another value in a body (422) and in a raw store write', async () => {
    const store = sqlStore('sqlite::memory:');
    stores.push(store);
    const api = createApi({ resources: [tasks], store });
    await api.ready();
    const wrong = await callApi(api, { method: 'POST', path: '/tasks', body: { title: 'A', status: 'closed' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ errors: { status: ['must be one of: open, in_progress, done'] } });
    const made = await callApi(api, { method: 'POST', path: '/tasks', body: { title: 'A', size: Size.Large } });
    expect(made.body).toMatchObject({ task: { status: 'open', size: 3 } });
    const schema = compiledResource(tasks).schema;
    const raw = store.transaction((tx) => tx.collection(schema).create({ title: 'B', status: 'closed' }));
    await expect(raw).rejects.toMatchObject({ name: 'ConstraintViolation', kind: 'check', field: 'status' });
  });

  it('a step that writes another value past validation gets a 422 naming the field', async () => {
    const sneaky = defineResource({
      name: 'task',
      model: Task,
      // The types refuse it too: a step writing a value outside the list needs a cast.
      steps: { prepare: (_ctx, next) => ({ ...next(), status: 'closed' as Task['status'] }) },
    });
    const store = sqlStore('sqlite::memory:');
    stores.push(store);
    const api = createApi({ resources: [sneaky], store });
    const answer = await callApi(api, { method: 'POST', path: '/tasks', body: { title: 'A', status: 'open' } });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ errors: { status: ['is not accepted'] } });
  });
});
