import 'reflect-metadata';
import { defineResource, memoryStore, type Resource } from '@resourcery/core';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { apiHooks, books } from '../../../docs/examples/owned-books.js';
import { resourcery } from '../src/index.js';
import { call, serve } from './serve.js';

// A field `fields.show` hides can be neither filtered nor sorted on unless a list names it:
// else its values could be guessed one request at a time.

let close: () => Promise<void> = async () => {};
afterEach(() => close());

// biome-ignore lint/suspicious/noExplicitAny: any resource can be started
async function start(resource: Resource<any, any>): Promise<string> {
  const app = express().use('/api', resourcery({ resources: [resource], store: memoryStore(), hooks: apiHooks }));
  const server = await serve(app);
  close = server.close;
  await call(`${server.api}/books`, 'POST', { name: 'Dune', author: 'Herbert' }, 'alice');
  return server.api;
}

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
async function indexParameters(api: string): Promise<Record<string, any>> {
  const document = await (await call(`${api}/openapi.json`)).json();
  const parameters: { name: string }[] = document.paths['/books'].get.parameters;
  return Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter]));
}

describe('hidden fields (fields.show leaves ownerId and deleted out)', () => {
  it('cannot be filtered or sorted on: 400, and the document does not offer them', async () => {
    const api = await start(books);
    for (const query of [
      'filter[ownerId]=1',
      'filter[ownerId][]=1',
      'filter[deleted]=true',
      'sort=-deleted',
      'sort=ownerId',
    ]) {
      const res = await call(`${api}/books?${query}`, 'GET', undefined, 'alice');
      expect(res.status, query).toBe(400);
      expect((await res.json()).code).toBe('invalid_query');
    }
    expect((await call(`${api}/books?filter[author]=Herbert&sort=-name`, 'GET', undefined, 'alice')).status).toBe(200);
    const parameters = await indexParameters(api);
    expect(Object.keys(parameters).filter((name) => /ownerId|deleted/.test(name))).toEqual([]);
    const sort = new RegExp(parameters.sort.schema.pattern, 'u');
    expect('-deleted').not.toMatch(sort);
    expect('-name').toMatch(sort);
  });

  it('can be allowed by naming them, and are then documented as hidden', async () => {
    const explicit = defineResource({
      ...books.options,
      fields: { ...books.options.fields, filter: ['author', 'ownerId'], sort: ['name', 'deleted'] },
    } as typeof books.options);
    const api = await start(explicit);
    const res = await call(`${api}/books?filter[ownerId]=1&sort=-deleted`, 'GET', undefined, 'alice');
    expect(res.status).toBe(200);
    expect((await res.json()).books).toHaveLength(1);
    const parameters = await indexParameters(api);
    expect(parameters['filter[ownerId]'].description).toContain('not shown in responses');
    expect('-deleted').toMatch(new RegExp(parameters.sort.schema.pattern, 'u'));
  });
});
