import 'reflect-metadata';
import { callApi } from '@resourcery/testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { createApi } from '../src/api/create-api.js';
import { openApiDocument } from '../src/openapi/build-document.js';
import { defineResource } from '../src/resource/define-resource.js';
import { belongsTo } from '../src/resource/relations.js';
import { memoryStore } from '../src/store/memory-store.js';

// Bulk writes and upserts in the document (CONTRACT part 4, "Bulk writes"): the list form of POST
// beside the single one, PATCH and DELETE on the collection, `upsert=`; and what the server
// answers fits it.

class Board {
  @IsString() @Length(1, 100) name!: string;
}
class Note {
  @IsString() @Length(1, 100) text!: string;
}
class Task {
  @IsString() @Length(1, 100) title!: string;
  @IsIn(['todo', 'done']) state!: string;
  @IsInt() @Min(1) @Max(4) points!: number;
  @IsOptional() @IsInt() boardId?: number | null;
}

const boards = defineResource({ name: 'board', model: Board, bulk: { max: 3 }, unique: ['name'], upsert: ['name'] });
const tasks = defineResource({
  name: 'task',
  model: Task,
  bulk: { max: 3 },
  defaults: { state: 'todo' },
  relations: { board: belongsTo(Board, { foreignKey: 'boardId' }) },
});
const plain = defineResource({ name: 'note', model: Note });

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
type Json = any;
const document: Json = openApiDocument([boards, tasks, plain]);
const { schemas } = document.components;

/** A check of answers against the document's schema of an operation's status. */
function checker(doc: Json) {
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ components: doc.components }, 'doc');
  return (path: string, method: string, status: number, body: unknown) => {
    const response = doc.paths[path][method].responses[String(status)];
    expect(response, `${method} ${path} documents ${status}`).toBeDefined();
    const content = response.$ref ? doc.components.responses[response.$ref.split('/').pop()].content : response.content;
    if (!content) return expect(body, `${method} ${path} ${status} has no body`).toBeUndefined();
    const schema = (Object.values(content)[0] as Json).schema;
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')));
    expect(validate(body), `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  };
}

describe('a resource with bulk', () => {
  const collection = document.paths['/tasks'];

  it('has PATCH and DELETE on the collection, named after the plural, in a valid document', async () => {
    expect(Object.keys(collection)).toEqual(['description', 'get', 'post', 'patch', 'delete']);
    expect([collection.post.operationId, collection.patch.operationId, collection.delete.operationId]).toEqual([
      'createTask',
      'updateTasks',
      'destroyTasks',
    ]);
    expect(Object.keys(document.paths['/notes'])).toEqual(['description', 'get', 'post']);
    const result = await new Validator().validate(document);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
  });

  it('takes one record or a list on POST, and answers one or the list', () => {
    const body = collection.post.requestBody.content['application/json'].schema;
    expect(body.oneOf).toEqual([
      { $ref: '#/components/schemas/TaskCreateInput' },
      expect.objectContaining({ required: ['task'] }),
      { $ref: '#/components/schemas/TaskCreateList' },
    ]);
    expect(schemas.TaskCreateList).toMatchObject({
      required: ['tasks'],
      properties: {
        tasks: { type: 'array', items: { $ref: '#/components/schemas/TaskCreateInput' }, minItems: 1, maxItems: 3 },
      },
      additionalProperties: false,
    });
    const success = collection.post.responses['200'];
    expect(success.content['application/json'].schema.oneOf).toEqual([
      expect.objectContaining({ required: ['task'] }),
      { $ref: '#/components/schemas/TaskList' },
    ]);
    // A list answers neither a Location nor an ETag.
    expect(success.headers.Location.required).toBe(false);
    expect(success.headers.ETag.required).toBe(false);
    expect(collection.post.responses['422']).toEqual({ $ref: '#/components/responses/BulkValidationFailed' });
    // The single form of a resource without bulk is as it was.
    const note = document.paths['/notes'].post;
    expect(note.requestBody.content['application/json'].schema.oneOf).toHaveLength(2);
    expect(note.responses['200'].headers.ETag.required).toBe(true);
    expect(note.responses['422']).toEqual({ $ref: '#/components/responses/ValidationFailed' });
  });

  it('takes entries of an id, an _etag and the fields to change on PATCH', () => {
    const { patch } = collection;
    expect(patch.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/TaskUpdateList',
    });
    const entry = schemas.TaskUpdateEntry;
    expect(entry.required).toEqual(['id']);
    expect(entry.properties.id).toMatchObject({ type: 'integer', minimum: 1 });
    expect(entry.properties.id.readOnly).toBeUndefined();
    expect(entry.properties._etag.type).toBe('string');
    expect(Object.keys(entry.properties)).toEqual(['id', '_etag', ...Object.keys(schemas.TaskUpdateInput.properties)]);
    expect(patch.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/TaskList',
    });
    expect(patch.parameters).toEqual([expect.objectContaining({ name: 'If-Match', in: 'header' })]);
    expect(Object.keys(patch.responses)).toEqual([
      '200',
      '400',
      '412',
      '413',
      '415',
      '422',
      '431',
      '500',
      '503',
      'default',
    ]);
    expect(
      document.components.responses.BulkValidationFailed.content['application/problem+json'].example.errors,
    ).toEqual({
      '/books/2/name': ['is required'],
    });
  });

  it('takes filter[id][] on DELETE, 1 to max ids, exploded; 409 where other records refer to it', () => {
    const [ids, ...others] = document.paths['/boards'].delete.parameters;
    expect(others).toEqual([]);
    expect(ids).toMatchObject({
      name: 'filter[id][]',
      in: 'query',
      required: true,
      style: 'form',
      explode: true,
      schema: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1, maxItems: 3 },
    });
    expect(Object.keys(document.paths['/boards'].delete.responses)).toEqual(
      expect.arrayContaining(['204', '400', '404', '409']),
    );
    expect(collection.delete.responses['409']).toBeUndefined();
  });

  it('leaves out what an action turned off would take, and no component is left unused', () => {
    const readOnly = defineResource({
      name: 'log',
      model: Note,
      bulk: true,
      actions: { update: false, destroy: false },
    });
    const doc: Json = openApiDocument([readOnly]);
    expect(Object.keys(doc.paths['/logs'])).toEqual(['description', 'get', 'post']);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Log', 'LogCreateInput', 'LogList', 'LogCreateList']),
    );
    expect(doc.components.schemas.LogUpdateList).toBeUndefined();
    const text = JSON.stringify({ paths: doc.paths, components: doc.components });
    const unused = Object.keys(doc.components.schemas).filter(
      (name) => !text.includes(`"#/components/schemas/${name}"`),
    );
    expect(unused).toEqual([]);
  });
});

describe('a resource with upsert', () => {
  it('takes upsert on POST, its values the declared keys', () => {
    const post = document.paths['/boards'].post;
    const upsert = post.parameters.find((parameter: Json) => parameter.name === 'upsert');
    expect(upsert).toMatchObject({ in: 'query', schema: { type: 'string', enum: ['name'] } });
    expect(post.parameters.map((parameter: Json) => parameter.name)).toEqual(['upsert', 'If-Match']);
    expect(document.paths['/tasks'].post.parameters.map((parameter: Json) => parameter.name)).toEqual(['If-Match']);
    const only = openApiDocument([defineResource({ name: 'tag', model: Board, unique: ['name'], upsert: ['name'] })]);
    const tag = (only.paths['/tags'] as Json).post;
    expect(tag.parameters[0].schema.enum).toEqual(['name']);
    expect(tag.responses['200'].headers.Location.required).toBe(false);
    expect(tag.responses['200'].headers.ETag.required).toBe(false);
    expect(tag.requestBody.content['application/json'].schema.oneOf).toHaveLength(2);
  });
});

describe('bulk writes on an API with authenticate', () => {
  class Ticket {
    @IsString() @Length(1, 100) title!: string;
    @IsOptional() @IsISO8601() archivedAt?: string | null;
  }
  const tickets = defineResource({
    name: 'ticket',
    model: Ticket,
    bulk: true,
    archive: 'archivedAt',
    access: { destroy: ['admin'], anonymous: ['destroy'] },
  });
  const doc: Json = openApiDocument([tickets], { authenticate: true });
  const { post, patch, delete: destroy } = doc.paths['/tickets'];

  it('document 401 and 403 on each, the 403 of a list naming fields by JSON Pointer', async () => {
    for (const operation of [post, patch, destroy]) {
      expect(operation.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
    }
    expect(post.responses['403']).toEqual({ $ref: '#/components/responses/BulkForbidden' });
    expect(patch.responses['403']).toEqual({ $ref: '#/components/responses/BulkForbidden' });
    expect(destroy.responses['403']).toEqual({ $ref: '#/components/responses/Forbidden' });
    expect(doc.components.responses.BulkForbidden.content['application/problem+json'].example.errors).toEqual({
      '/books/3/priority': ['may not be changed by you'],
    });
    // The action's own rules: anonymous callers may destroy, so they may destroy several.
    expect(destroy.security).toEqual([{}, { bearer: [] }]);
    expect(patch.security).toBeUndefined();
    const result = await new Validator().validate(doc);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
  });

  it('archive several on DELETE, and take no archived parameter on PATCH', () => {
    expect(destroy.summary).toBe('Archive several tickets');
    expect(destroy.description).toMatch(/^Archives the tickets rather than deleting them: sets `archivedAt`/);
    expect(destroy.responses['204'].description).toBe('The tickets were archived');
    expect(patch.parameters.map((parameter: Json) => parameter.name)).toEqual(['If-Match']);
    expect(doc.paths['/tickets/{id}'].patch.parameters.map((parameter: Json) => parameter.name)).toContain('archived');
  });
});

describe('what the server answers', () => {
  it('fits the document: lists, upserts, their problems, and the Allow of the collection', async () => {
    const api = createApi({ resources: [boards, tasks, plain], store: memoryStore() });
    const check = checker(document);
    const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
      const reply = await callApi(api, { method, path, body });
      const [route] = path.split('?') as [string];
      check(route, method.toLowerCase(), reply.status, reply.body);
      return reply;
    };
    const created = await call('POST', '/boards', { boards: [{ name: 'A' }, { name: 'B' }] });
    expect(created.status).toBe(200);
    const [a, b] = created.body.boards;
    expect((await call('POST', '/boards', { board: { name: 'C' } })).status).toBe(200);
    const refused = await call('POST', '/boards', { boards: [{ name: 'D' }, {}] });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors)).toEqual(['/boards/1/name']);
    expect((await call('POST', '/boards', { boards: [] })).status).toBe(422);
    const upserted = await call('POST', '/boards?upsert=name', { board: { name: 'A' } });
    expect([upserted.status, upserted.body.board.id]).toEqual([200, a.id]);
    expect((await call('POST', '/boards?upsert=name', { boards: [{ name: 'B' }, { name: 'E' }] })).status).toBe(200);
    expect((await call('POST', '/boards?upsert=other', { board: { name: 'A' } })).status).toBe(400);

    const task = (await call('POST', '/tasks', { task: { title: 'T', points: 1, boardId: a.id } })).body.task;
    const changed = await call('PATCH', '/tasks', { tasks: [{ id: task.id, state: 'done' }] });
    expect([changed.status, changed.body.tasks[0].state]).toEqual([200, 'done']);
    const stale = await call('PATCH', '/tasks', { tasks: [{ id: task.id, _etag: '"stale"', points: 2 }] });
    expect(stale.status).toBe(412);
    const missing = await call('PATCH', '/tasks', { tasks: [{ id: 999, points: 2 }] });
    expect([missing.status, missing.body.errors]).toEqual([422, { '/tasks/0/id': ['does not exist'] }]);

    expect((await call('DELETE', `/boards?filter[id][]=${a.id}&filter[id][]=${b.id}`)).status).toBe(409);
    expect((await call('DELETE', `/boards?filter[id][]=${b.id}&filter[id][]=999`)).status).toBe(404);
    expect((await call('DELETE', `/boards?filter[id][]=${b.id}&sort=id`)).status).toBe(400);
    expect((await call('DELETE', `/boards?filter[id][]=${b.id}`)).status).toBe(204);

    const options = await callApi(api, { method: 'OPTIONS', path: '/tasks' });
    const allow = options.headers.Allow ?? options.headers.allow;
    expect(allow).toBe('GET, HEAD, POST, PATCH, DELETE, OPTIONS');
    const documented = ['get', 'post', 'patch', 'delete'].filter((method) => document.paths['/tasks'][method]);
    expect(documented.map((method) => method.toUpperCase())).toEqual(
      allow?.split(', ').filter((method: string) => !['HEAD', 'OPTIONS'].includes(method)),
    );
    expect((await callApi(api, { method: 'OPTIONS', path: '/notes' })).headers.Allow).toBe('GET, HEAD, POST, OPTIONS');
  });
});
