import 'reflect-metadata';
import { Book } from '@resourcery/testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { describe, expect, it } from 'vitest';
import { type OpenApiDocument, openApiDocument } from '../src/openapi/build-document.js';
import { STORABLE_STRING } from '../src/openapi/schemas.js';
import { defineResource } from '../src/resource/define-resource.js';

class Article {
  @IsString() @Length(3, 80) title!: string;
  @IsOptional() @IsString() @MaxLength(2000) body?: string | null;
  @IsEmail() contact!: string;
  @IsOptional() @IsUrl() homepage?: string | null;
  @IsIn(['draft', 'published']) status!: string;
  @IsOptional() @IsString() @IsIn(['low', 'high']) priority?: string | null;
  @IsInt() @Min(0) @Max(10) rating!: number;
  @IsNumber() @IsPositive() price!: number;
  @IsBoolean() pinned!: boolean;
  @IsString() @MinLength(2) @Matches(/^[a-z-]+$/) slug!: string;
}

const articles = defineResource({
  name: 'article',
  model: Article,
  fields: {
    readOnly: ['slug'],
    create: ['title', 'body', 'contact', 'homepage', 'status', 'priority', 'rating', 'price', 'pinned'],
    update: ['title', 'body'],
    show: ['title', 'status', 'slug', 'priority'],
    filter: ['status', 'rating', 'pinned'],
    sort: ['title', 'id'],
  },
  perPage: { default: 10, max: 40 },
  actions: { destroy: false },
});
const books = defineResource({ name: 'book', model: Book });

async function expectValid(document: OpenApiDocument): Promise<void> {
  const result = await new Validator().validate(document as unknown as Record<string, unknown>);
  expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
  expect(result.valid).toBe(true);
}

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
type Json = any;
const schemasOf = (document: OpenApiDocument): Json => document.components.schemas;
const operation = (document: OpenApiDocument, path: string, method: string): Json => document.paths[path]?.[method];

describe('openApiDocument', () => {
  it('passes the OpenAPI 3.1 schema validator', async () => {
    const document = openApiDocument([books, articles], { title: 'Library', version: '2.0.0', basePath: '/api/' });
    await expectValid(document);
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.info).toMatchObject({ title: 'Library', version: '2.0.0' });
    expect(document.servers).toEqual([{ url: '/api' }]);
    await expectValid(openApiDocument([]));
  });

  it('describes the five operations with their exact statuses', () => {
    const document = openApiDocument([books]);
    expect(Object.keys(document.paths)).toEqual(['/books', '/books/{id}']);
    const statuses = (path: string, method: string) => Object.keys(operation(document, path, method).responses);
    // 431 on every operation: any request may bring headers over Node's limit.
    expect(statuses('/books', 'get')).toEqual(['200', '400', '412', '414', '431', '500', '503', 'default']);
    const create = ['200', '400', '412', '413', '415', '422', '431', '500', '503', 'default'];
    expect(statuses('/books', 'post')).toEqual(create);
    // 400: `fields` may name an unknown field.
    expect(statuses('/books/{id}', 'get')).toEqual(['200', '304', '400', '404', '412', '431', '500', '503', 'default']);
    const update = ['200', '400', '404', '412', '413', '415', '422', '431', '500', '503', 'default'];
    expect(statuses('/books/{id}', 'patch')).toEqual(update);
    expect(statuses('/books/{id}', 'delete')).toEqual(['204', '404', '412', '431', '500', '503', 'default']);
    for (const [path, method] of [
      ['/books', 'post'],
      ['/books/{id}', 'get'],
      ['/books/{id}', 'patch'],
    ] as const) {
      expect(operation(document, path, method).responses['200'].headers.ETag.required).toBe(true);
    }
    const names = (path: string, method: string) =>
      operation(document, path, method).parameters.map((parameter: { name: string }) => parameter.name);
    expect(names('/books/{id}', 'get')).toEqual(['fields', 'If-None-Match', 'If-Match']);
    expect(names('/books', 'post')).toEqual(['If-Match']);
    expect(names('/books', 'get')).toContain('If-Match');
    expect(operation(document, '/books/{id}', 'patch').parameters[0].name).toBe('If-Match');
    expect(operation(document, '/books', 'post').responses['200'].headers.Location.required).toBe(true);
    expect(Object.keys(operation(document, '/books', 'get').responses['200'].headers)).toEqual([
      'Link',
      'X-Total-Count',
      'X-Total-Count-Estimate',
    ]);
    expect(operation(document, '/books', 'get').operationId).toBe('indexBooks');
    expect(operation(document, '/books/{id}', 'delete').operationId).toBe('destroyBook');
  });

  it('reads types, requiredness, lengths, formats, enums and bounds from the decorators', () => {
    const create = schemasOf(openApiDocument([articles])).ArticleCreateInput;
    expect(create.additionalProperties).toBe(false);
    expect(create.required).toEqual(['title', 'contact', 'status', 'rating', 'price', 'pinned']);
    expect(create.properties).toEqual({
      title: { type: 'string', minLength: 3, maxLength: 80, pattern: STORABLE_STRING },
      body: { type: ['string', 'null'], maxLength: 2000, pattern: STORABLE_STRING },
      contact: { type: 'string', format: 'email', pattern: STORABLE_STRING },
      homepage: { type: ['string', 'null'], format: 'uri', pattern: STORABLE_STRING },
      status: { type: 'string', enum: ['draft', 'published'], pattern: STORABLE_STRING },
      priority: { type: ['string', 'null'], enum: ['low', 'high', null], pattern: STORABLE_STRING },
      rating: { type: 'integer', minimum: 0, maximum: 10 },
      price: { type: 'number', exclusiveMinimum: 0 },
      pinned: { type: 'boolean' },
    });
  });

  it('gives create, update and output their own fields from the allow-lists', () => {
    const schemas = schemasOf(openApiDocument([articles]));
    expect(Object.keys(schemas.ArticleUpdateInput.properties)).toEqual(['title', 'body']);
    expect(schemas.ArticleUpdateInput.required).toBeUndefined();
    expect(schemas.ArticleUpdateInput.additionalProperties).toBe(false);
    expect(schemas.Article.required).toEqual(['id', 'title', 'status', 'slug', 'priority']);
    expect(schemas.Article.properties.slug).toEqual({ type: 'string', readOnly: true });
    expect(schemas.Article.properties.id).toMatchObject({ type: 'integer', readOnly: true });
  });

  it('declares every index parameter by its own name, with sort and per_page limited', () => {
    const parameters = operation(openApiDocument([articles]), '/articles', 'get').parameters.filter(
      (parameter: { in: string }) => parameter.in === 'query',
    );
    const byName = Object.fromEntries(parameters.map((parameter: { name: string }) => [parameter.name, parameter]));
    const range = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'];
    expect(Object.keys(byName)).toEqual([
      ...[
        'filter[status]',
        'filter[status][]',
        ...[...range, 'prefix', 'contains'].map((op) => `filter[status][${op}]`),
      ],
      ...['filter[rating]', 'filter[rating][]', ...range.map((op) => `filter[rating][${op}]`)],
      ...['filter[pinned]', 'filter[pinned][]', 'filter[pinned][eq]', 'filter[pinned][ne]'],
      ...['sort', 'fields', 'page', 'per_page', 'count'],
    ]);
    expect(byName['filter[rating][gte]'].schema).toEqual(byName['filter[rating]'].schema);
    expect(byName['filter[status][prefix]'].description).toContain('literal, case-sensitive');
    expect(byName.fields).toMatchObject({ style: 'form', explode: false });
    expect(byName.fields.schema).toMatchObject({ items: { enum: ['id', 'title', 'status', 'slug', 'priority'] } });
    expect(byName['filter[rating]'].schema).toEqual({ type: 'integer', minimum: -(2 ** 53 - 1), maximum: 2 ** 53 - 1 });
    expect(byName['filter[rating][]']).toMatchObject({ style: 'form', explode: true });
    expect(byName['filter[rating][]'].schema).toMatchObject({ type: 'array', items: { type: 'integer' }, minItems: 1 });
    const sort = new RegExp(byName.sort.schema.pattern);
    for (const ok of ['title', '-title', 'title,-id', '-id,title']) expect(ok).toMatch(sort);
    for (const bad of ['', 'rating', 'title,', '-', 'title;id', 'ti.le']) expect(bad).not.toMatch(sort);
    // At most `limits.sortKeys` (8) keys, none twice.
    expect(byName.sort.schema.pattern).toMatch(/\{0,7\}\$$/);
    for (const twice of ['title,title', 'id,-id']) expect(twice).not.toMatch(sort);
    expect(byName['filter[status]'].schema).toEqual({ type: 'string', pattern: STORABLE_STRING });
    expect(byName['filter[status][]'].schema.maxItems).toBe(100);
    expect(byName.count.schema).toEqual({
      oneOf: [{ type: 'boolean' }, { type: 'string', const: 'estimated' }],
      default: true,
    });
    expect(byName.per_page.schema).toMatchObject({ minimum: 1, maximum: 40, default: 10 });
  });

  it('leaves disabled actions out but keeps their paths (they answer 405)', () => {
    const document = openApiDocument([articles]);
    expect(operation(document, '/articles/{id}', 'delete')).toBeUndefined();
    expect(operation(document, '/articles/{id}', 'patch')).toBeDefined();
    const bare = defineResource({ name: 'log', model: Book, actions: { show: false, update: false, destroy: false } });
    expect(Object.keys(openApiDocument([bare]).paths['/logs/{id}'] ?? {})).toEqual(['description', 'parameters']);
  });

  it('accepts flat and wrapped bodies, exactly one alternative matching', () => {
    const document = openApiDocument([books]);
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ components: document.components }, 'doc');
    const bodySchema = (method: string, path: string) =>
      JSON.parse(
        JSON.stringify(operation(document, path, method).requestBody.content['application/json'].schema).replaceAll(
          '"#/components',
          '"doc#/components',
        ),
      );
    const create = ajv.compile(bodySchema('post', '/books'));
    const update = ajv.compile(bodySchema('patch', '/books/{id}'));
    for (const body of [{ name: 'Dune', author: 'F' }, { book: { name: 'Dune', author: 'F' } }])
      expect(create(body)).toBe(true);
    for (const body of [{}, { name: 'Dune' }, { book: { id: 1, name: 'x', author: 'y' } }, { name: '' }]) {
      expect(create(body), JSON.stringify(body)).toBe(false);
    }
    for (const body of [{}, { name: 'Emma' }, { book: {} }, { book: { author: 'A' } }]) expect(update(body)).toBe(true);
    for (const body of [{ id: 2 }, { book: { name: null } }, { name: 'x'.repeat(501) }, { book: {}, name: 'x' }]) {
      expect(update(body), JSON.stringify(body)).toBe(false);
    }
  });

  it('does not offer the wrapped form when the model has a field named like the resource', () => {
    class Tag {
      @IsString() tag!: string;
    }
    const document = openApiDocument([defineResource({ name: 'tag', model: Tag })]);
    expect(operation(document, '/tags', 'post').requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/TagCreateInput',
    });
  });

  it('names components uniquely, whatever the resources are called', async () => {
    const problems = defineResource({ name: 'problem', model: Book });
    const posts = defineResource({ name: 'blog-post', model: Book });
    const others = defineResource({ name: 'blog_post', model: Book, path: 'other-posts' });
    const document = openApiDocument([problems, posts, others]);
    await expectValid(document);
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['Problem', 'ValidationProblem', 'Problem2', 'BlogPost', 'BlogPost2']),
    );
    expect(operation(document, '/other-posts', 'post').operationId).toBe('createBlogPost2');
  });

  it('uses the problems the server really sends as examples', () => {
    const { responses }: Json = openApiDocument([books]).components;
    expect(responses.ValidationFailed.content['application/problem+json'].example).toEqual({
      type: 'about:blank',
      title: 'Unprocessable Content',
      status: 422,
      detail: 'The request body has an invalid field: author',
      code: 'validation_failed',
      errors: { author: ['is required'] },
    });
    expect(responses.RequestHeadersTooLarge.content['application/problem+json'].example).toMatchObject({
      status: 431,
      code: 'request_too_large',
    });
  });
});
