import 'reflect-metadata';
import { callApi } from '@resourcery/testing';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { IsBoolean, IsInt, IsObject, IsOptional, IsString } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { library } from '../../../test-support/library-resources.js';
import { type Api, createApi } from '../src/api/create-api.js';
import { OPERATORS } from '../src/contract/operators.js';
import { openApiDocument } from '../src/openapi/build-document.js';
import { relationsOf } from '../src/openapi/relations.js';
import { compiledResource, defineResource } from '../src/resource/define-resource.js';
import { memoryStore } from '../src/store/memory-store.js';

// The query language of CONTRACT part 3 in the document is exactly what the server takes: every
// `filter[...]` key the server could be sent (each attribute, hidden and JSON ones included, each
// belongs-to and has-many relation, each operator and a few that are none) is listed if and only
// if the server answers 200 to it; every value probed is admitted by the parameter's schema if
// and only if the server takes it; and so are `fields`, `include`, `page` and `after`.

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
type Json = any;
/** A resource of any model, as `openApiDocument` takes them. */
type Resource = Parameters<typeof openApiDocument>[0][number];

class Entry {
  @IsString() title!: string;
  @IsOptional() @IsInt() year?: number | null;
  @IsBoolean() done!: boolean;
  @IsOptional() @IsObject() meta?: Record<string, unknown> | null;
  @IsOptional() on?: string | null;
  @IsInt() ownerId!: number;
}

/** Cursor pagination, uuid ids, a date, a JSON field, a hidden filterable field, declared operators. */
const entries = defineResource({
  name: 'entry',
  plural: 'entries',
  model: Entry,
  id: 'uuid',
  types: { on: 'date' },
  pagination: 'cursor',
  fields: {
    show: ['title', 'year', 'done', 'meta', 'on'],
    filter: ['title', 'year', 'done', 'on', 'ownerId'],
    operators: { title: ['prefix', 'contains'], year: ['gte', 'lt', 'null'], done: ['eq'] },
  },
});

const SAMPLE: Record<string, string> = {
  integer: '1',
  number: '1.5',
  decimal: '1.5',
  string: 'x',
  boolean: 'true',
  'date-time': '2024-05-01T12:00:00Z',
  date: '2024-05-01',
  uuid: '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
  json: '{}',
};
const SUFFIXES = ['', '[]', ...OPERATORS.map((op) => `[${op}]`), '[like]', '[EQ]'];
const PROBES = ['not-a-value', '', '12.345', '2024-13-01'];

const ajv = new Ajv2020.default({ strict: false });
addFormats.default(ajv);
/** A query value read as the parameter's schema types it, as clients and the checker read it. */
function typed(schema: Json, raw: string): unknown {
  const types = [schema?.type].flat();
  if (types.includes('integer') && /^-?(0|[1-9][0-9]*)$/.test(raw)) return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}
function admits(parameter: Json, raw: string): boolean {
  const { schema } = parameter;
  const value = schema.type === 'array' ? raw.split(',').map((item) => typed(schema.items, item)) : typed(schema, raw);
  return ajv.validate(schema, value) as boolean;
}

/** Every filter key worth trying on a resource, each with a value of the attribute's type. */
function filterCandidates(resources: readonly Resource[], resource: Resource): [string, string][] {
  const attributes = (target: Resource) => [...compiledResource(target).attributes.values()];
  const related = (relationsOf(resources).get(resource) ?? []).map((relation) => [relation.name, relation.target]);
  const candidates: [string, string][] = [];
  for (const [prefix, target] of [['', resource], ...related, ['nope.', resource]] as [string, Resource][]) {
    const through = prefix && !prefix.endsWith('.') ? `${prefix}.` : prefix;
    for (const attribute of [...attributes(target), { name: 'nope', type: 'string' }]) {
      for (const suffix of SUFFIXES) {
        const value = suffix === '[null]' ? 'true' : (SAMPLE[attribute.type] as string);
        candidates.push([`filter[${through}${attribute.name}]${suffix}`, value]);
      }
    }
  }
  return candidates;
}

const cases: [string, Resource[], Resource][] = [
  ...library.map((resource): [string, Resource[], Resource] => [resource.plural, [...library], resource]),
  ['entries', [entries], entries],
];

describe.each(cases)('the query parameters of %s', (plural, resources, resource) => {
  const api: Api = createApi({ resources, store: memoryStore() });
  const document: Json = openApiDocument(resources);
  const listed = (path: string) =>
    new Map<string, Json>(document.paths[path].get.parameters.map((parameter: Json) => [parameter.name, parameter]));
  const index = listed(`/${plural}`);
  const show = listed(`/${plural}/{id}`);
  const status = async (query: string) => (await callApi(api, { method: 'GET', path: `/${plural}?${query}` })).status;
  const pair = (key: string, value: string) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`;

  it('lists every filter key the server takes, and no other', async () => {
    const wrong: string[] = [];
    for (const [key, value] of filterCandidates(resources, resource)) {
      const parameter = index.get(key);
      if (parameter && !admits(parameter, value)) wrong.push(`${key}=${value}: the sample is not admitted`);
      const answered = await status(pair(key, value));
      if (answered !== (parameter ? 200 : 400)) wrong.push(`${key}=${value}: ${answered}, listed: ${!!parameter}`);
    }
    expect(wrong).toEqual([]);
    expect([...index.keys()].filter((name) => name.startsWith('filter[')).length).toBeGreaterThan(0);
  });

  it('admits exactly the filter values the server takes', async () => {
    const wrong: string[] = [];
    for (const [name, parameter] of index) {
      if (!name.startsWith('filter[')) continue;
      for (const probe of PROBES) {
        const answered = await status(pair(name, probe));
        if (answered !== (admits(parameter, probe) ? 200 : 400)) wrong.push(`${name}=${probe}: ${answered}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('lists the fields and relations show and index take, and the pagination of the resource', async () => {
    const compiled = compiledResource(resource);
    // Show reads `fields` and `include` as index does.
    expect(show.get('fields')).toEqual(index.get('fields'));
    expect(show.get('include')).toEqual(index.get('include'));
    const fields = index.get('fields');
    for (const name of [...compiled.attributes.keys(), 'nope']) {
      expect(await status(`fields=${name}`), name).toBe(fields.schema.items.enum.includes(name) ? 200 : 400);
    }
    const [first = '', second = ''] = fields.schema.items.enum;
    expect(await status(`fields=${first},${second}`)).toBe(200);
    expect(await status(`fields=${first},${first}`)).toBe(400);
    expect(admits(fields, `${first},${first}`)).toBe(false);
    const include = index.get('include');
    for (const name of [...Object.keys(compiled.relations), 'nope']) {
      expect(await status(`include=${name}`), name).toBe(include?.schema.items.enum.includes(name) ? 200 : 400);
    }
    const cursor = compiled.query.pagination === 'cursor';
    expect(index.has('after')).toBe(cursor);
    expect(index.has('page')).toBe(!cursor);
    expect(await status('page=1')).toBe(cursor ? 400 : 200);
    expect(await status('after=x')).toBe(400);
    expect(index.get('count').schema.default).toBe(cursor ? false : compiled.query.count);
    const link = document.paths[`/${plural}`].get.responses['200'].headers.Link;
    expect(link.required ?? false).toBe(!cursor);
  });
});
