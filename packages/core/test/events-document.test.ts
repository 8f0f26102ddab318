import 'reflect-metadata';
import { callApi } from '@resourcery/testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Length } from 'class-validator';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../src/access/principal.js';
import { createApi } from '../src/api/create-api.js';
import { openApiDocument } from '../src/openapi/build-document.js';
import { defineResource } from '../src/resource/define-resource.js';
import { memoryStore } from '../src/store/memory-store.js';

// The live events operation in the document: the index's filters, q and archived, the problems
// it can answer, and the shapes of its events, which the events the server sends fit.

class Task {
  @IsString() @Length(1, 100) title!: string;
  @IsIn(['todo', 'done']) state!: string;
  @IsInt() points!: number;
  @IsOptional() @IsISO8601() archivedAt?: string | null;
}
const tasks = defineResource({ name: 'task', model: Task, live: true, archive: 'archivedAt', search: ['title'] });
const notes = defineResource({ name: 'note', model: Task });
const authenticate = (): Principal => ({ role: 'admin' }) as Principal;

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
type Json = any;
const document: Json = openApiDocument([tasks, notes], { authenticate });
const operation = document.paths['/tasks/events']?.get;

/** The events of a stream's text: each `event:` name with its parsed `data:`. */
function eventsOf(text: string): { event: string; data: unknown }[] {
  return text
    .split('\n\n')
    .map((block) => new Map(block.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line])))
    .filter((fields) => fields.has('event'))
    .map((fields) => ({
      event: String(fields.get('event')).slice(7),
      data: JSON.parse(String(fields.get('data')).slice(6)),
    }));
}

describe('the live events operation', () => {
  it('is documented only for a live resource, as watch<Plural>, and passes the OpenAPI 3.1 validator', async () => {
    expect(Object.keys(document.paths)).toEqual(['/tasks', '/tasks/{id}', '/tasks/events', '/notes', '/notes/{id}']);
    expect(operation.operationId).toBe('watchTasks');
    const result = await new Validator().validate(document);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
  });

  it("takes the index's filters, q and archived, and Last-Event-ID; nothing of paging", () => {
    const parameters = Object.fromEntries(operation.parameters.map((p: Json) => [p.name, p]));
    expect(parameters['filter[state]']).toBeDefined();
    expect(parameters['filter[points][gte]']).toBeDefined();
    expect(parameters.q.description).toMatch(/the stream sends the changes of what the index would list/);
    expect(parameters.archived).toMatchObject({ in: 'query', schema: { type: 'boolean', default: false } });
    expect(parameters.archived.description).toMatch(/destroyed/);
    expect(parameters['Last-Event-ID']).toMatchObject({ in: 'header', required: false });
    for (const name of ['sort', 'page', 'per_page', 'include', 'fields', 'after', 'count']) {
      expect(parameters[name], name).toBeUndefined();
    }
  });

  it('lists the problems it can answer: 400, 401, 403, 406, and 503 with Retry-After when the server holds its most streams', () => {
    expect(Object.keys(operation.responses)).toEqual([
      '200',
      '400',
      '401',
      '403',
      '406',
      '431',
      '500',
      '503',
      'default',
    ]);
    expect(operation.responses['406']).toEqual({ $ref: '#/components/responses/NotAcceptable' });
    expect(operation.responses['503'].description).toMatch(/most event streams/);
    expect(operation.responses['503'].headers['Retry-After']).toBeDefined();
    expect(Object.keys(operation.responses['200'].content)).toEqual(['text/event-stream']);
    expect(Object.keys(operation.responses['200'].content['text/event-stream']['x-events'])).toEqual([
      'created',
      'updated',
      'destroyed',
      'reset',
    ]);
  });

  it('describes the events the server sends, and its 406 and 503', async () => {
    const logError = (error: unknown, { status }: { status: number }) => status !== 503 && console.error(error);
    const live = { maxStreams: 1 };
    const api = createApi({ resources: [tasks, notes], store: memoryStore(), authenticate, logError, live });
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ components: document.components }, 'doc');
    const validate = (schema: Json, body: unknown, label: string) => {
      const check = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')));
      expect(check(body), `${label}: ${ajv.errorsText(check.errors)}`).toBe(true);
    };
    const problem = (status: number, body: unknown) => {
      const response = operation.responses[String(status)];
      const content = response.$ref
        ? document.components.responses[response.$ref.split('/').pop()].content
        : response.content;
      validate(content['application/problem+json'].schema, body, String(status));
    };

    const accept = { accept: 'text/event-stream' };
    const request = { method: 'GET', path: '/tasks/events', basePath: '/api', rawQuery: '', headers: accept };
    const response = await api.handle(request);
    expect(response.status).toBe(200);
    const stream = response.stream?.[Symbol.asyncIterator]() as AsyncIterator<string>;
    const created = await callApi(api, {
      method: 'POST',
      path: '/tasks',
      body: { title: 'A', state: 'todo', points: 1 },
    });
    const id = (created.body as { task: { id: number } }).task.id;
    await callApi(api, { method: 'PATCH', path: `/tasks/${id}`, body: { state: 'done' } });
    await callApi(api, { method: 'DELETE', path: `/tasks/${id}` });
    let text = '';
    while (eventsOf(text).length < 3) text += (await stream.next()).value;
    const busy = await api.handle(request); // over the cap of 1
    expect(busy.status).toBe(503);
    problem(503, JSON.parse(busy.body as string));
    await stream.return?.();

    const shapes = operation.responses['200'].content['text/event-stream']['x-events'];
    const events = eventsOf(text);
    expect(events.map((event) => event.event)).toEqual(['created', 'updated', 'destroyed']);
    // An id the server no longer knows: the stream starts with a reset.
    const resumed = await api.handle({ ...request, headers: { ...accept, 'last-event-id': 'gone-1' } });
    const rest = resumed.stream?.[Symbol.asyncIterator]() as AsyncIterator<string>;
    let more = '';
    while (eventsOf(more).length < 1) more += (await rest.next()).value;
    await rest.return?.();
    events.push(...eventsOf(more));
    expect(events.at(-1)?.event).toBe('reset');
    for (const { event, data } of events) validate(shapes[event], data, event);
    const refused = await callApi(api, {
      method: 'GET',
      path: '/tasks/events',
      headers: { accept: 'application/json' },
    });
    expect(refused.status).toBe(406);
    problem(406, refused.body);
    await api.close();
  });
});
