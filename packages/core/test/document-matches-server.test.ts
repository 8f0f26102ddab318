import 'reflect-metadata';
import { Book } from '@resourcery/testing';
import { IsBoolean, IsInt, IsOptional, IsString, Length } from 'class-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApi } from '../src/api/create-api.js';
import { openApiDocument } from '../src/openapi/build-document.js';
import { parseIndexQuery } from '../src/query/parse-query.js';
import { resolveIndexQuery } from '../src/query/resolve-query.js';
import { compiledResource, defineResource } from '../src/resource/define-resource.js';
import { memoryStore } from '../src/store/memory-store.js';

// The document says what the server does: what it accepts, what it answers, what it hides.

class Owned {
  @IsString() @Length(1, 500) name!: string;
  @IsString() @Length(1, 500) author!: string;
  @IsInt() ownerId!: number;
  @IsOptional() @IsBoolean() deleted?: boolean | null;
}

const owned = defineResource({
  name: 'book',
  model: Owned,
  fields: { readOnly: ['ownerId', 'deleted'], show: ['name', 'author'] },
});

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
type Json = any;
/** A resource of any model, as `openApiDocument` takes them. */
type AnyResource = Parameters<typeof openApiDocument>[0][number];

function indexParameters(resource: AnyResource): Record<string, Json> {
  const document: Json = openApiDocument([resource]);
  const parameters: Json[] = document.paths[`/${resource.path}`].get.parameters;
  return Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter]));
}

/** Whether the server takes `sort=<value>` for this resource (else it answers 400). */
function serverAccepts(resource: AnyResource, value: string): boolean {
  try {
    resolveIndexQuery(parseIndexQuery(`sort=${encodeURIComponent(value)}`), compiledResource(resource).query);
    return true;
  } catch {
    return false;
  }
}

describe('hidden fields', () => {
  it('are neither filterable nor sortable by default, nor documented as such', () => {
    const parameters = indexParameters(owned);
    // Each shown field: equals, any of, and its operators (query-document.test.ts checks them all).
    const filtered = new Set(
      Object.keys(parameters)
        .filter((name) => name.startsWith('filter['))
        .map((name) => /^filter\[([^\]]+)\]/.exec(name)?.[1]),
    );
    expect([...filtered]).toEqual(['id', 'name', 'author']);
    expect(parameters['filter[name][prefix]']).toBeDefined();
    expect(parameters.fields.schema.items.enum).toEqual(['id', 'name', 'author']);
    const sort = new RegExp(parameters.sort.schema.pattern, 'u');
    for (const value of ['name', '-id', 'author,-name']) expect(value).toMatch(sort);
    for (const value of ['ownerId', '-deleted', 'name,ownerId']) expect(value).not.toMatch(sort);
    const { query } = compiledResource(owned);
    expect([...query.filterable]).toEqual(['id', 'name', 'author']);
    expect([...query.sortable]).toEqual(['id', 'name', 'author']);
  });

  it('may still be named by an explicit list, and are then documented as hidden', () => {
    const explicit = defineResource({
      name: 'book',
      model: Owned,
      fields: { show: ['name'], filter: ['name', 'ownerId'], sort: ['deleted'] },
    });
    const parameters = indexParameters(explicit);
    expect(parameters['filter[ownerId]'].description).toContain('`ownerId` is not shown in responses');
    expect(parameters['filter[author]']).toBeUndefined();
    expect('-deleted').toMatch(new RegExp(parameters.sort.schema.pattern, 'u'));
    expect(parameters.sort.description).toContain('`deleted` is not shown in responses');
    // A scope step queries hidden fields: they keep their index.
    expect(compiledResource(owned).schema.indexed).toEqual(expect.arrayContaining(['ownerId', 'deleted']));
  });
});

describe('the sort pattern', () => {
  const books = defineResource({ name: 'book', model: Book });
  const pattern = new RegExp(indexParameters(books).sort.schema.pattern, 'u');

  it('refuses a key listed twice, as the server does', () => {
    for (const value of ['name,name', 'id,-id', '-name,name', 'author,name,-author', 'name,id,author,id']) {
      expect(serverAccepts(books, value), value).toBe(false);
      expect(value, value).not.toMatch(pattern);
    }
    for (const value of ['name', '-id', 'name,-author,id']) {
      expect(serverAccepts(books, value), value).toBe(true);
      expect(value).toMatch(pattern);
    }
  });

  it('accepts exactly the sort values the server accepts', () => {
    // Names the pattern must tell apart: sortable ones, near misses and prefixes of them.
    const key = fc.tuple(
      fc.constantFrom('', '-', '--'),
      fc.constantFrom('id', 'name', 'author', 'nam', 'names', 'Name', 'year', '', 'a b'),
    );
    const value = fc.array(key, { minLength: 0, maxLength: 10 }).map((keys) => keys.map(([a, b]) => a + b).join(','));
    fc.assert(
      fc.property(fc.oneof(value, fc.string()), (sort) => {
        expect(pattern.test(sort), JSON.stringify(sort)).toBe(serverAccepts(books, sort));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('schemas', () => {
  it('declare every member they require, so that generators can type them', () => {
    const document: Json = openApiDocument([owned, defineResource({ name: 'note', model: Book })]);
    const undeclared: string[] = [];
    const walk = (node: Json, where: string): void => {
      // Arrays too: their entries are walked by index.
      if (node && typeof node === 'object') {
        if (Array.isArray(node.required) && node.type === 'object') {
          for (const name of node.required) if (!node.properties?.[name]) undeclared.push(`${where}: ${name}`);
        }
        for (const [key, value] of Object.entries(node)) walk(value, `${where}/${key}`);
      }
    };
    walk(document, '#');
    expect(undeclared).toEqual([]);
    expect(document.components.schemas.ValidationProblem.allOf[1].properties.errors.type).toBe('object');
  });

  it('give responses the limits the bodies have, for the fields clients write', () => {
    const document: Json = openApiDocument([owned]);
    const { Book: output, BookCreateInput: input } = document.components.schemas;
    expect(output.properties.name).toEqual(input.properties.name);
    expect(output.properties.name).toMatchObject({ minLength: 1, maxLength: 500 });
    expect(output.properties.id).toMatchObject({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
  });
});

describe('the document', () => {
  it('declares no security requirement by default, and the given ones otherwise', () => {
    expect(openApiDocument([owned]).security).toEqual([]);
    const secured = openApiDocument([owned], {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      security: [{ bearer: [] }],
      license: { name: 'MIT', identifier: 'MIT' },
    });
    expect(secured.security).toEqual([{ bearer: [] }]);
    expect(secured.components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer' } });
    expect(secured.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });

  it('refuses, at start-up, a security requirement naming a scheme it does not declare', () => {
    const undeclared =
      /openapi\.security names the scheme "bearer", which openapi\.securitySchemes does not declare \(declared: none\)/;
    expect(() => openApiDocument([owned], { security: [{ bearer: [] }] })).toThrow(undeclared);
    expect(() =>
      createApi({ resources: [owned], store: memoryStore(), openapi: { security: [{ bearer: [] }] } }),
    ).toThrow(undeclared);
    const misspelt = { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, security: [{ Bearer: [] }] };
    expect(() => createApi({ resources: [owned], store: memoryStore(), openapi: misspelt })).toThrow(
      /the scheme "Bearer", which openapi\.securitySchemes does not declare \(declared: bearer\)/,
    );
    // Turned off, the document is not built: nothing to check.
    createApi({ resources: [owned], store: memoryStore(), openapi: false, docs: false });
  });

  it('has no component that nothing refers to, whatever actions are enabled', () => {
    const readOnly = defineResource({ name: 'log', model: Book, actions: { create: false, update: false } });
    const noUpdate = defineResource({ name: 'entry', model: Book, actions: { update: false } });
    for (const resources of [[owned], [readOnly], [noUpdate], [readOnly, noUpdate]]) {
      const document: Json = openApiDocument(resources);
      const unused: string[] = [];
      for (const kind of ['responses', 'schemas']) {
        const { [kind]: components, ...rest } = document.components;
        const text = JSON.stringify({ paths: document.paths, rest, components });
        for (const name of Object.keys(components)) {
          if (!text.includes(`"#/components/${kind}/${name}"`)) unused.push(`${kind}/${name}`);
        }
      }
      expect(unused, resources.map((resource) => resource.name).join()).toEqual([]);
    }
    const readOnlyDocument: Json = openApiDocument([readOnly]);
    expect(Object.keys(readOnlyDocument.components.responses)).not.toContain('ValidationFailed');
    expect(Object.keys(readOnlyDocument.components.schemas)).not.toContain('ValidationProblem');
  });
});
