import 'reflect-metadata';
import { callApi } from '@resourcery/testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { IsString } from 'class-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessApi, accessResources, tenancy, tokenFor } from '../../../test-support/access-resources.js';
import { createApi } from '../src/api/create-api.js';
import { openApiDocument } from '../src/openapi/build-document.js';
import { defineResource } from '../src/resource/define-resource.js';
import { memoryStore } from '../src/store/memory-store.js';

// The document of an API with the access model (CONTRACT part 4, "Authentication"): the bearer
// scheme on every operation, 401 and 403 documented as the server answers them, and the schemas
// as the declaration allows (server-set fields read-only, fields some callers may not read
// optional, who may write what, the archive).

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
type Json = any;
const METHODS = ['get', 'post', 'patch', 'delete'];

/** Every operation of a document, by `METHOD path`. */
function operations(document: Json): [string, Json][] {
  return Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method): [string, Json] => [
      `${method.toUpperCase()} ${path}`,
      item[method],
    ]),
  );
}

const api = () => createApi({ ...accessApi, store: memoryStore() });
let document: Json;
beforeAll(async () => {
  // Served by the API itself, without a token.
  const served = await callApi(api(), { method: 'GET', path: '/openapi.json' });
  expect(served.status).toBe(200);
  document = served.body;
});

describe('the security of an API with authenticate', () => {
  it('declares the bearer scheme and requires it of every operation', async () => {
    expect(document.components.securitySchemes).toEqual({
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: expect.any(String) },
    });
    expect(document.security).toEqual([{ bearer: [] }]);
    const relaxed = operations(document).filter(([, operation]) => operation.security !== undefined);
    // Only the actions anonymous callers may take make the token optional.
    expect(relaxed.map(([name]) => name)).toEqual(['GET /notices', 'GET /notices/{id}']);
    for (const [, operation] of relaxed) expect(operation.security).toEqual([{}, { bearer: [] }]);
    const result = await new Validator().validate(document);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
  });

  it("keeps the user's own schemes and requirements", () => {
    const apiKey = { type: 'apiKey', in: 'header', name: 'X-Api-Key' };
    const own = openApiDocument(accessResources, { ...accessApi, securitySchemes: { apiKey } });
    expect(own.components.securitySchemes).toEqual({ apiKey });
    expect(own.security).toEqual([{ apiKey: [] }]);
    const none = openApiDocument(accessResources, { ...accessApi, security: [] });
    expect(none.security).toEqual([]);
    expect((none.paths['/notices'] as Json).get.security).toBeUndefined();
    // An API without authenticate requires nothing, as before.
    expect(openApiDocument(accessResources, { tenancy }).security).toEqual([]);
    expect(openApiDocument(accessResources, { tenancy }).components.securitySchemes).toBeUndefined();
  });

  it('documents 401 and 403 on every operation, keeping default for the rest', () => {
    for (const [name, operation] of operations(document)) {
      expect(operation.responses['401'], name).toEqual({ $ref: '#/components/responses/Unauthorized' });
      expect(operation.responses['403'], name).toEqual({ $ref: '#/components/responses/Forbidden' });
      expect(operation.responses.default, name).toBeDefined();
      const statuses = Object.keys(operation.responses);
      expect(statuses, name).toEqual(
        [...statuses].sort((a, b) => (a === 'default' ? 1 : b === 'default' ? -1 : +a - +b)),
      );
    }
    const { Unauthorized, Forbidden } = document.components.responses;
    expect(Unauthorized.headers['WWW-Authenticate']).toMatchObject({ required: true });
    expect(Forbidden.content['application/problem+json'].schema.allOf[0]).toEqual({
      $ref: '#/components/schemas/ForbiddenProblem',
    });
    expect(document.components.schemas.ForbiddenProblem.allOf[1].properties.errors.examples).toEqual([
      { priority: ['may not be changed by you'] },
    ]);
  });

  it("gives as 401 and 403 examples the server's own answers", async () => {
    const served = api();
    const member = await tokenFor({ sub: 2, org: 1, role: 'member' });
    const admin = await tokenFor({ sub: 1, org: 1, role: 'admin' });
    const anonymous = await callApi(served, { method: 'GET', path: '/issues' });
    const { Unauthorized, Forbidden } = document.components.responses;
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['WWW-Authenticate']).toBe('Bearer');
    expect(anonymous.body).toEqual(Unauthorized.content['application/problem+json'].example);
    const created = await callApi(served, {
      method: 'POST',
      path: '/issues',
      headers: { authorization: `Bearer ${admin}` },
      body: { title: 'Crash on start', priority: 2 },
    });
    expect(created.status).toBe(200);
    const changed = await callApi(served, {
      method: 'PATCH',
      path: `/issues/${(created.body as Json).issue.id}`,
      headers: { authorization: `Bearer ${member}` },
      body: { priority: 1 },
    });
    expect(changed.status).toBe(403);
    expect(changed.body).toEqual(Forbidden.content['application/problem+json'].example);
  });

  it('documents 403 without authenticate only where a rule refuses', () => {
    class Note {
      @IsString() text!: string;
    }
    const notes = defineResource({ name: 'note', model: Note, access: { destroy: false } });
    const open = openApiDocument([notes]) as Json;
    expect(Object.keys(open.paths['/notes/{id}'].delete.responses)).toContain('403');
    for (const [name, operation] of operations(open).filter(([name]) => name !== 'DELETE /notes/{id}')) {
      expect(Object.keys(operation.responses), name).not.toContain('403');
      expect(Object.keys(operation.responses), name).not.toContain('401');
    }
  });
});

describe('the schemas, as the declaration allows', () => {
  it('make the fields set from the principal read-only, and leave them out of the bodies', () => {
    const { schemas } = document.components;
    for (const [record, fields] of [
      ['User', ['orgId']],
      ['Issue', ['orgId']],
      ['Comment', ['orgId', 'authorId']],
    ] as const) {
      for (const field of fields) {
        expect(schemas[record].properties[field], `${record}.${field}`).toMatchObject({
          readOnly: true,
          description: expect.stringContaining("Set by the server from the caller's credentials"),
        });
        expect(schemas[`${record}CreateInput`].properties[field], `${record}.${field}`).toBeUndefined();
        expect(schemas[`${record}CreateInput`].required ?? [], `${record}.${field}`).not.toContain(field);
        expect(schemas[`${record}UpdateInput`].properties[field], `${record}.${field}`).toBeUndefined();
      }
    }
    expect(schemas.Notice.properties.message.readOnly).toBeUndefined();
  });

  it('say a field some callers may not read is there only for those who may, and not required', () => {
    const { User, UserFields } = document.components.schemas;
    expect(User.required).not.toContain('email');
    expect(User.required).toContain('name');
    expect(User.properties.email.description).toMatch(
      /^Present only for callers allowed to read it \(callers with the role `admin`\)/,
    );
    expect(UserFields.properties.email.description).toBe(User.properties.email.description);
    const users = document.paths['/users'].get.parameters;
    const described = (name: string) => users.find((parameter: Json) => parameter.name === name)?.description;
    for (const name of ['filter[email]', 'filter[email][]', 'filter[email][prefix]', 'sort', 'fields']) {
      expect(described(name), name).toContain(
        '`email` is refused (400, as a field that does not exist) for callers who may not read it; callers with the role `admin` may.',
      );
    }
    expect(described('filter[name]')).not.toContain('refused');
    // Through a relation too: `filter[assignee.email]` on issues.
    const assignee = document.paths['/issues'].get.parameters.find(
      (parameter: Json) => parameter.name === 'filter[assignee.email]',
    );
    expect(assignee.description).toContain('`assignee.email` is refused (400');
  });

  it('say who may write a field, and that the others get 403', () => {
    const { Issue, IssueUpdateInput, IssueCreateInput } = document.components.schemas;
    const rule = 'Only callers with the role `admin` may change it; for the others a different value is 403 naming it';
    expect(IssueUpdateInput.properties.priority.description).toContain(rule);
    expect(Issue.properties.priority.description).toContain(rule);
    expect(IssueCreateInput.properties.priority.description).toBeUndefined();
  });

  it('make the archive field read-only but null to restore, and give archived to index, show and update, and an archiving destroy', () => {
    const { Issue, IssueCreateInput, IssueUpdateInput } = document.components.schemas;
    expect(Issue.properties.archivedAt).toMatchObject({
      readOnly: true,
      description: expect.stringContaining('archives it'),
    });
    expect(IssueCreateInput.properties.archivedAt).toBeUndefined();
    expect(IssueUpdateInput.properties.archivedAt).toMatchObject({
      type: 'null',
      description: expect.stringContaining('with `?archived=true` restores'),
    });
    expect(document.paths['/issues/{id}'].patch.description).toContain(
      'Restoring an archived issue: `?archived=true` with `{"archivedAt": null}`',
    );
    for (const [path, method] of [
      ['/issues', 'get'],
      ['/issues/{id}', 'get'],
      ['/issues/{id}', 'patch'],
    ] as const) {
      const operation = document.paths[path][method];
      const archived = operation.parameters.find((parameter: Json) => parameter.name === 'archived');
      expect(archived, path).toMatchObject({ in: 'query', schema: { type: 'boolean', default: false } });
      expect(operation.responses['400'], path).toBeDefined();
    }
    const destroy = document.paths['/issues/{id}'].delete;
    expect(destroy.description).toMatch(/^Archives the issue rather than deleting it: sets `archivedAt`/);
    expect(destroy.responses['204'].description).toBe('The issue was archived');
    // Resources without archive have no such parameter.
    const users = document.paths['/users'].get.parameters.map((parameter: Json) => parameter.name);
    expect(users).not.toContain('archived');
    expect(document.paths['/users/{id}'].delete.description).not.toContain('Archives');
  });

  it("describe the server's answers to each role", async () => {
    const served = api();
    const admin = await tokenFor({ sub: 1, org: 1, role: 'admin' });
    const viewer = await tokenFor({ sub: 3, org: 1, role: 'viewer' });
    const body = { name: 'Ada', email: 'ada@example.com', role: 'member' };
    const headers = (token: string) => ({ authorization: `Bearer ${token}` });
    expect((await callApi(served, { method: 'POST', path: '/users', headers: headers(admin), body })).status).toBe(200);
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ components: document.components }, 'doc');
    const validate = ajv.compile({ $ref: 'doc#/components/schemas/User' });
    for (const token of [admin, viewer]) {
      const shown = await callApi(served, { method: 'GET', path: '/users', headers: headers(token) });
      const [user] = (shown.body as Json).users;
      expect(validate(user), JSON.stringify(validate.errors)).toBe(true);
      expect('email' in user).toBe(token === admin);
    }
    // What the document refuses, the server refuses: orgId in a body.
    const create = ajv.compile({ $ref: 'doc#/components/schemas/UserCreateInput' });
    expect(create({ ...body, orgId: 2 })).toBe(false);
    const refused = await callApi(served, {
      method: 'POST',
      path: '/users',
      headers: headers(admin),
      body: { ...body, orgId: 2 },
    });
    expect(refused.status).toBe(422);
  });
});
