// docs/openapi.md, "Bulk writes and upserts": the document of tasks.ts's resources has the list
// forms, the collection's PATCH and DELETE and the upsert parameter, and what the server answers
// fits it.
import { createApi, memoryStore } from '@resourcery/core';
import { callApi } from '@resourcery/testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { tags, tasks } from './tasks.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
type Json = any;

describe('the document of resources with bulk and upsert', () => {
  it('says what the page says, and fits what the server answers', async () => {
    const api = createApi({ resources: [tasks, tags], store: memoryStore() });
    const document = (await callApi(api, { method: 'GET', path: '/openapi.json' })).body as Json;
    await expect(new Validator().validate(document)).resolves.toMatchObject({ valid: true });
    const { post, patch, delete: destroy } = document.paths['/tasks'];
    expect([post.operationId, patch.operationId, destroy.operationId]).toEqual([
      'createTask',
      'updateTasks',
      'destroyTasks',
    ]);
    expect(post.requestBody.content['application/json'].schema.oneOf).toContainEqual({
      $ref: '#/components/schemas/TaskCreateList',
    });
    expect(post.responses['200'].content['application/json'].schema.oneOf).toEqual([
      expect.objectContaining({ required: ['task'] }),
      { $ref: '#/components/schemas/TaskList' },
    ]);
    const { TaskUpdateEntry, TaskCreateList } = document.components.schemas;
    expect(TaskUpdateEntry.required).toEqual(['id']);
    expect(Object.keys(TaskUpdateEntry.properties)).toEqual(['id', '_etag', 'title', 'state']);
    expect(TaskCreateList.properties.tasks).toMatchObject({ minItems: 1, maxItems: 50 });
    expect(destroy.parameters).toEqual([
      expect.objectContaining({ name: 'filter[id][]', required: true, style: 'form', explode: true }),
    ]);
    const upsert = document.paths['/tags'].post.parameters.find((p: Json) => p.name === 'upsert');
    expect(upsert.schema).toEqual({ type: 'string', enum: ['name'] });
    expect(document.paths['/tags'].patch).toBeUndefined();

    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ components: document.components }, 'doc');
    const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
      const reply = await callApi(api, { method, path, body });
      const template = path.split('?')[0] as string;
      const response = document.paths[template][method.toLowerCase()].responses[String(reply.status)];
      const content = response.$ref
        ? document.components.responses[response.$ref.split('/').pop()].content
        : response.content;
      if (content) {
        const schema = JSON.stringify(Object.values<Json>(content)[0].schema).replaceAll(
          '"#/components',
          '"doc#/components',
        );
        const validate = ajv.compile(JSON.parse(schema));
        expect(validate(reply.body), `${method} ${path}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
      return reply;
    };
    expect((await call('POST', '/tasks', { tasks: [{ title: 'A' }, { title: 'B' }] })).status).toBe(200);
    expect((await call('POST', '/tasks', { tasks: [{ title: 'C' }, { title: '' }] })).body.errors).toEqual({
      '/tasks/1/title': ['must be between 1 and 200 characters long'],
    });
    expect((await call('PATCH', '/tasks', { tasks: [{ id: 1, state: 'done' }] })).status).toBe(200);
    expect((await call('PATCH', '/tasks', { tasks: [{ id: 1, _etag: '"old"', title: 'A2' }] })).status).toBe(412);
    expect((await call('DELETE', '/tasks?filter[id][]=1&filter[id][]=3')).status).toBe(404);
    expect((await call('DELETE', '/tasks?filter[id][]=1&filter[id][]=2')).status).toBe(204);
    expect((await call('POST', '/tags?upsert=name', { tag: { name: 'bug', color: '#d73a4a' } })).status).toBe(200);
    expect((await call('POST', '/tags?upsert=color', { tag: { name: 'bug', color: '#d73a4a' } })).status).toBe(400);
  });
});
