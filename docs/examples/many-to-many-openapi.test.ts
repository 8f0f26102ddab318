// docs/many-to-many.md: the OpenAPI document describes a many-to-many relation (labelIds, an
// array of unique integers; `labels` in include; filter[labels.*]), and what the server answers
// fits it.
import { callApi } from '@resourcery/testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { issuesApi } from './many-to-many.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
type Json = any;

describe('the document of a many-to-many relation', () => {
  it('describes labelIds, include=labels and filter[labels.name], and fits what the server answers', async () => {
    const api = issuesApi();
    const document = (await callApi(api, { method: 'GET', path: '/openapi.json' })).body as Json;
    await expect(new Validator().validate(document)).resolves.toMatchObject({ valid: true });
    const { Issue, IssueCreateInput, IssueUpdateInput } = document.components.schemas;
    expect(Issue.properties.labelIds).toMatchObject({ type: 'array', items: { type: 'integer' }, uniqueItems: true });
    expect(Issue.required).toContain('labelIds');
    for (const input of [IssueCreateInput, IssueUpdateInput]) {
      expect(input.properties.labelIds).toMatchObject({ type: 'array', items: { type: 'integer' } });
      expect(input.required ?? []).not.toContain('labelIds');
    }
    const parameters = document.paths['/issues'].get.parameters.map((p: Json) => p.$ref ?? p.name);
    const named = (name: string) =>
      document.paths['/issues'].get.parameters.find((p: Json) => p.name === name) as Json | undefined;
    expect(named('include')?.schema.items.enum).toContain('labels');
    for (const name of ['filter[labels.name]', 'filter[labels.name][]', 'filter[labels.name][prefix]']) {
      expect(parameters, name).toContain(name);
    }

    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ components: document.components }, 'doc');
    const call = async (method: string, path: string, template: string, body?: unknown) => {
      const reply = await callApi(api, { method, path, body });
      const response = document.paths[template][method.toLowerCase()].responses[String(reply.status)];
      const content = response.$ref
        ? document.components.responses[response.$ref.split('/').pop()].content
        : response.content;
      const schema = JSON.stringify(Object.values<Json>(content)[0].schema).replaceAll(
        '"#/components',
        '"doc#/components',
      );
      const validate = ajv.compile(JSON.parse(schema));
      expect(validate(reply.body), `${method} ${path}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      return reply;
    };
    await call('POST', '/labels', '/labels', { name: 'bug', color: '#d73a4a' });
    await call('POST', '/issues', '/issues', { title: 'Crash', labelIds: [1] });
    await call('GET', '/issues/1?include=labels', '/issues/{id}');
    await call('GET', '/issues?include=labels&filter[labels.name]=bug', '/issues');
    await call('PATCH', '/issues/1', '/issues/{id}', { labelIds: [7] });
  });
});
