import 'reflect-metadata';
import { callApi } from '@resourcery/testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { IsDecimal, IsIn, IsInt, IsISO8601, IsOptional, IsString, Length } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { createApi } from '../src/api/create-api.js';
import { openApiDocument } from '../src/openapi/build-document.js';
import { defineResource } from '../src/resource/define-resource.js';
import { memoryStore } from '../src/store/memory-store.js';

// The statistics operation in the document: its path, parameters and an answer typed by the
// attributes, which what the server answers fits; problems as the server gives them.

class Task {
  @IsString() @Length(1, 100) title!: string;
  @IsIn(['todo', 'done']) state!: string;
  @IsInt() points!: number;
  @IsOptional() @IsDecimal({ decimal_digits: '0,2' }) cost?: string | null;
  @IsOptional() @IsISO8601() dueAt?: string | null;
}

const tasks = defineResource({
  name: 'task',
  model: Task,
  archive: 'dueAt',
  stats: { group: ['state', 'points'], sum: ['points', 'cost'], min: ['cost', 'dueAt'], max: ['dueAt'] },
});
const plain = defineResource({ name: 'note', model: Task });

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
type Json = any;
const document: Json = openApiDocument([tasks, plain]);
const operation = document.paths['/tasks/stats']?.get;

describe('the statistics operation', () => {
  it('is documented only for a resource that declares stats, and passes the OpenAPI 3.1 validator', async () => {
    expect(Object.keys(document.paths)).toEqual(['/tasks', '/tasks/{id}', '/tasks/stats', '/notes', '/notes/{id}']);
    expect(Object.keys(document.paths['/tasks/stats'])).toEqual(['description', 'get']);
    expect(operation.operationId).toBe('statsTasks');
    const result = await new Validator().validate(document);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
  });

  it('takes the index filters, archived, and the allowed names of group, sum, min and max', () => {
    const parameters = Object.fromEntries(operation.parameters.map((p: Json) => [p.name, p]));
    expect(parameters['filter[state]']).toBeDefined();
    expect(parameters['filter[points][gte]']).toBeDefined();
    expect(parameters.archived.schema).toEqual({ type: 'boolean', default: false });
    expect(parameters.sort).toBeUndefined();
    expect(parameters.page).toBeUndefined();
    const matches = (name: string, value: string) => new RegExp(parameters[name].schema.pattern).test(value);
    expect(matches('group', 'state')).toBe(true);
    expect(matches('group', 'state,points')).toBe(true);
    expect(matches('group', 'title')).toBe(false);
    expect(matches('sum', 'points,cost')).toBe(true);
    expect(matches('sum', 'dueAt')).toBe(false);
    expect(matches('min', 'dueAt')).toBe(true);
    expect(matches('max', 'cost')).toBe(false);
    expect(Object.keys(operation.responses)).toEqual(
      expect.arrayContaining(['200', '400', '412', '500', '503', 'default']),
    );
  });

  it('describes what the server answers, and its 400', async () => {
    const api = createApi({ resources: [tasks, plain], store: memoryStore() });
    for (const [title, state, points, cost] of [
      ['a', 'todo', 1, '1.25'],
      ['b', 'done', 2, null],
      ['c', 'done', 2, '10.00'],
    ] as const) {
      expect(
        (await callApi(api, { method: 'POST', path: '/tasks', body: { title, state, points, cost } })).status,
      ).toBe(200);
    }
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ components: document.components }, 'doc');
    const check = (status: number, body: unknown) => {
      const response = operation.responses[String(status)];
      const content = response.$ref
        ? document.components.responses[response.$ref.split('/').pop()].content
        : response.content;
      const schema = Object.values<Json>(content)[0].schema;
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')));
      expect(validate(body), `${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    };
    for (const query of [
      'group=state,points&sum=points,cost&min=cost,dueAt&max=dueAt',
      'sum=cost',
      'filter[state]=none&sum=points,cost',
      'archived=true&group=points',
    ]) {
      const reply = await callApi(api, { method: 'GET', path: `/tasks/stats?${query}` });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      check(200, reply.body);
    }
    const refused = await callApi(api, { method: 'GET', path: '/tasks/stats?group=title' });
    expect(refused.status).toBe(400);
    check(400, refused.body);
  });
});

describe('the statistics of a field some callers may not read', () => {
  it('say on group that it is refused to them', () => {
    class Person {
      @IsString() @Length(1, 100) name!: string;
      @IsString() @Length(1, 100) email!: string;
    }
    const people = defineResource({
      name: 'person',
      plural: 'people',
      model: Person,
      stats: { group: ['name', 'email'] },
      access: { fields: { email: { read: ['admin'] } } },
    });
    const doc: Json = openApiDocument([people]);
    const group = doc.paths['/people/stats'].get.parameters.find((p: Json) => p.name === 'group');
    expect(group.description).toMatch(/email/);
    expect(group.description).toMatch(/admin/);
  });
});

describe('the statistics of a searched resource with listed values', () => {
  class Ticket {
    @IsString() @Length(1, 100) title!: string;
    @IsIn(['open', 'done']) state!: string;
    @IsInt() points!: number;
  }
  const tickets = defineResource({
    name: 'ticket',
    model: Ticket,
    search: ['title'],
    stats: { group: ['state'], sum: ['points'], min: ['points'] },
  });
  const doc: Json = openApiDocument([tickets]);
  const stats = doc.paths['/tickets/stats'].get;

  it('take q, as the index does and the server does', async () => {
    const q = stats.parameters.find((p: Json) => p.name === 'q');
    expect(q).toMatchObject({ in: 'query', schema: { type: 'string', minLength: 1 } });
    expect(q.description).toContain('the statistics count what the index would list');
    const api = createApi({ resources: [tickets], store: memoryStore() });
    for (const [title, state] of [
      ['Login crash', 'open'],
      ['Export crash', 'done'],
      ['Login typo', 'done'],
    ]) {
      expect((await callApi(api, { method: 'POST', path: '/tickets', body: { title, state, points: 1 } })).status).toBe(
        200,
      );
    }
    const reply = await callApi(api, { method: 'GET', path: '/tickets/stats?q=login&group=state' });
    expect(reply.body).toEqual({
      stats: [
        { state: 'done', count: 1 },
        { state: 'open', count: 1 },
      ],
    });
  });

  it("type a group's listed values as an enum (null aside), and leave sums alone", async () => {
    const entry = stats.responses['200'].content['application/json'].schema.properties.stats.items;
    expect(entry.properties.state).toEqual({ anyOf: [{ type: 'string', enum: ['open', 'done'] }, { type: 'null' }] });
    expect(entry.properties.sum.properties.points.anyOf[0].anyOf[0]).toEqual({ type: 'integer' });
    const result = await new Validator().validate(doc);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
  });
});
