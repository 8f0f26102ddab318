import 'reflect-metadata';
import { callApi } from '@resourcery/testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { IsIn, IsInt, IsObject, IsOptional, IsString } from 'class-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authors, Book, books, library, reviews } from '../../../test-support/library-resources.js';
import { createApi } from '../src/api/create-api.js';
import { openApiDocument } from '../src/openapi/build-document.js';
import { decimalPattern } from '../src/openapi/value-types.js';
import { defineResource } from '../src/resource/define-resource.js';
import { belongsTo, hasMany } from '../src/resource/relations.js';
import { canonicalDecimal } from '../src/schema/values.js';
import { memoryStore } from '../src/store/memory-store.js';

// The document of several related resources (CONTRACT part 3): the new value types, server-set
// fields, `include` and its records, and the 409 of a destroy that others still refer to.

// biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON
type Json = any;
const document: Json = openApiDocument([...library], { basePath: '/api' });
const { schemas } = document.components;
const parameters = (path: string, method: string): Record<string, Json> => {
  const item = document.paths[path];
  const all = [...(item.parameters ?? []), ...item[method].parameters];
  return Object.fromEntries(all.map((parameter: Json) => [parameter.name, parameter]));
};
const statuses = (path: string, method: string) => Object.keys(document.paths[path][method].responses);

describe('the document of related resources', () => {
  it('passes the OpenAPI 3.1 schema validator', async () => {
    const result = await new Validator().validate(document);
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
  });

  it('marks the server-set fields read-only and leaves them out of the bodies', () => {
    const { Book: record, BookCreateInput: create, BookUpdateInput: update, Review: review } = schemas;
    for (const field of ['id', 'createdAt', 'updatedAt']) {
      expect(record.properties[field].readOnly, field).toBe(true);
      expect(create.properties[field], field).toBeUndefined();
      expect(update.properties[field], field).toBeUndefined();
    }
    expect(record.required).toEqual([
      ...['id', 'title', 'authorId', 'year', 'isbn', 'price', 'publishedAt', 'createdAt', 'updatedAt'],
    ]);
    expect(create.required).toEqual(['title', 'authorId']);
    expect(record.properties.createdAt).toMatchObject({ type: 'string', format: 'date-time' });
    expect('2024-05-01T12:00:00.000Z').toMatch(new RegExp(record.properties.updatedAt.pattern));
    expect(review.properties.id).toMatchObject({ type: 'string', format: 'uuid', readOnly: true });
    expect(review.properties.updatedAt).toBeUndefined();
    expect(parameters('/reviews/{id}', 'get').id.schema).toEqual({ type: 'string', format: 'uuid' });
    expect(parameters('/books/{id}', 'get').id.schema).toMatchObject({ type: 'integer', minimum: 1 });
  });

  it('gives decimals and date-times their wire forms', () => {
    const { Book: record, BookCreateInput: create } = schemas;
    expect(record.properties.price).toMatchObject({ type: ['string', 'null'], pattern: decimalPattern(2, 15, true) });
    expect(create.properties.price).toMatchObject({
      type: ['string', 'number', 'null'],
      pattern: decimalPattern(2, 15, false),
    });
    expect(create.properties.publishedAt).toMatchObject({ type: ['string', 'null'], format: 'date-time' });
    const filters = parameters('/books', 'get');
    expect(filters['filter[price]'].schema).toMatchObject({ type: 'string', pattern: decimalPattern(2, 15, false) });
    expect(filters['filter[publishedAt]'].schema).toMatchObject({ type: 'string', format: 'date-time' });
    expect(parameters('/reviews', 'get')['filter[id]'].schema).toEqual({ type: 'string', format: 'uuid' });
    expect(parameters('/reviews', 'get').sort.description).toContain('Default `-createdAt`');
  });

  it('offers include on show and index, with the relation names only', () => {
    for (const [path, names] of [
      ['/books', ['author', 'reviews']],
      ['/authors', ['books']],
      ['/reviews', ['book']],
    ] as const) {
      for (const [item, method] of [
        [path, 'get'],
        [`${path}/{id}`, 'get'],
      ]) {
        const include = parameters(item as string, method as string).include;
        expect(include).toMatchObject({ in: 'query', style: 'form', explode: false });
        expect(include.schema).toMatchObject({ type: 'array', items: { enum: names }, uniqueItems: true });
      }
    }
    expect(statuses('/books/{id}', 'get')).toContain('400');
    // The whole record, or the one `fields` narrows (relations still added whole).
    const records = [{ $ref: '#/components/schemas/BookWithRelations' }, { $ref: '#/components/schemas/BookFields' }];
    expect(document.paths['/books/{id}'].get.responses['200'].content['application/json'].schema).toEqual(
      expect.objectContaining({ properties: { book: { anyOf: records } } }),
    );
    expect(schemas.BookFields).toMatchObject({ type: 'object', required: ['id'] });
    expect(Object.keys(schemas.BookFields.properties)).toEqual([...schemas.Book.required, 'author', 'reviews']);
    expect(schemas.BookWithRelations.allOf[1].properties).toEqual({
      author: expect.objectContaining({
        oneOf: [{ $ref: '#/components/schemas/Author' }, { type: 'null' }],
      }),
      reviews: expect.objectContaining({
        type: 'array',
        items: { $ref: '#/components/schemas/Review' },
        maxItems: 100,
      }),
    });
  });

  it('lists 409 on the destroys that other records can block', () => {
    expect(statuses('/authors/{id}', 'delete')).toContain('409');
    // A book's reviews go with it (cascade): nothing can block its destroy.
    expect(statuses('/books/{id}', 'delete')).not.toContain('409');
    expect(statuses('/reviews/{id}', 'delete')).not.toContain('409');
    // A cascade passes the question on: reviews go with their book, and nothing blocks a review.
    const cascading = defineResource({
      name: 'book',
      model: Book,
      relations: { reviews: hasMany(() => reviews, { foreignKey: 'bookId', onDelete: 'cascade' }) },
    });
    const lone: Json = openApiDocument([cascading, reviews]);
    expect(Object.keys(lone.paths['/books/{id}']?.delete.responses)).not.toContain('409');
    expect(() => createApi({ resources: [cascading, reviews], store: memoryStore() })).not.toThrow();
  });

  it('refuses a relation whose target it does not describe', () => {
    expect(() => openApiDocument([books])).toThrow(/relation book\.author names a resource the document does not/);
  });

  it('documents defaults, dates and JSON attributes', async () => {
    class Shelf {
      @IsString() @IsIn(['open', 'closed']) state!: string;
      @IsInt() capacity!: number;
      @IsOptional() @IsObject() meta?: Record<string, unknown> | null;
      @IsOptional() opened?: string | null;
    }
    const shelves = defineResource({
      name: 'shelf',
      plural: 'shelves',
      model: Shelf,
      types: { opened: 'date' },
      defaults: { state: 'open', capacity: 10 },
    });
    const built: Json = openApiDocument([shelves]);
    await expect(new Validator().validate(built)).resolves.toMatchObject({ valid: true });
    const { ShelfCreateInput: create, Shelf: record } = built.components.schemas;
    expect(create.required).toBeUndefined();
    expect(create.properties.state).toMatchObject({ default: 'open' });
    expect(create.properties.capacity).toMatchObject({ default: 10 });
    expect(create.properties.meta).toMatchObject({ type: ['object', 'null'] });
    expect(record.properties.opened).toMatchObject({ type: ['string', 'null'], format: 'date' });
    const names = built.paths['/shelves'].get.parameters.map((parameter: Json) => parameter.name);
    expect(names).not.toContain('filter[meta]');
    expect(names).toContain('filter[opened]');
  });
});

describe('decimal patterns', () => {
  const text = fc.string({ unit: fc.constantFrom('0', '1', '9', '.', '-', '+', 'e', ' '), maxLength: 20 });
  const size = fc
    .tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: 15 }))
    .filter(([scale, precision]) => scale <= precision);

  it('admit exactly the text the server takes', () => {
    fc.assert(
      fc.property(text, size, (value, [scale, precision]) => {
        const accepted = canonicalDecimal(value, scale, precision).value !== undefined;
        expect(new RegExp(decimalPattern(scale, precision, false)).test(value), value).toBe(accepted);
      }),
      { numRuns: 3000 },
    );
  });

  it('match every value the server answers', () => {
    fc.assert(
      fc.property(text, size, (value, [scale, precision]) => {
        const answered = canonicalDecimal(value, scale, precision).value;
        if (answered !== undefined) expect(answered).toMatch(new RegExp(decimalPattern(scale, precision, true)));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('what the server answers', () => {
  it('fits the document, relations included', async () => {
    const api = createApi({ resources: [...library], store: memoryStore() });
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ components: document.components }, 'doc');
    const check = (path: string, method: string, status: number, body: unknown) => {
      const responses = document.paths[path][method].responses;
      const response = responses[String(status)] ?? responses.default;
      const content = response.$ref
        ? document.components.responses[response.$ref.split('/').pop()].content
        : response.content;
      const schema = Object.values<Json>(content)[0].schema;
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')));
      expect(validate(body), `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    };
    const call = async (method: string, path: string, template: string, body?: unknown) => {
      const reply = await callApi(api, { method, path, body });
      check(template, method.toLowerCase(), reply.status, reply.body);
      return reply;
    };
    const author = (await call('POST', '/authors', '/authors', { name: 'Ursula K. Le Guin' })).body as Json;
    const authorId = author.author.id;
    const created = await call('POST', '/books', '/books', {
      title: 'A Wizard of Earthsea',
      authorId,
      price: 12.5,
      publishedAt: '1968-11-01T09:00:00+01:00',
      isbn: '978-0000000',
    });
    expect(created.body).toMatchObject({ book: { price: '12.50', publishedAt: '1968-11-01T08:00:00.000Z' } });
    const bookId = (created.body as Json).book.id;
    await call('POST', '/reviews', '/reviews', { bookId, rating: 5, body: 'Timeless' });
    const shown = await call('GET', `/books/${bookId}?include=author,reviews`, '/books/{id}');
    expect(shown.body).toMatchObject({ book: { author: { id: authorId }, reviews: [{ rating: 5 }] } });
    await call('GET', '/authors?include=books', '/authors');
    await call('GET', '/reviews?include=book', '/reviews');
    expect((await call('GET', '/reviews?include=author', '/reviews')).status).toBe(400);
    expect((await call('GET', `/books/${bookId}?include=nope`, '/books/{id}')).status).toBe(400);
    const taken = await call('POST', '/books', '/books', { title: 'Again', authorId, isbn: '978-0000000' });
    expect(taken.body).toMatchObject({ errors: { isbn: ['is already taken'] } });
    const dangling = await call('POST', '/books', '/books', { title: 'Nobody', authorId: authorId + 100 });
    expect(dangling.body).toMatchObject({ errors: { authorId: ['does not exist'] } });
    expect((await call('DELETE', `/authors/${authorId}`, '/authors/{id}')).status).toBe(409);
  });

  it('keeps the has-many cap of the declaration', () => {
    const capped = defineResource({
      name: 'author',
      model: authors.model,
      relations: { books: hasMany(Book, { foreignKey: 'authorId', limit: 3 }) },
    });
    const cappedBooks = defineResource({
      name: 'book',
      model: Book,
      relations: { author: belongsTo(authors.model, { foreignKey: 'authorId' }) },
    });
    const built: Json = openApiDocument([capped, cappedBooks]);
    expect(built.components.schemas.AuthorWithRelations.allOf[1].properties.books.maxItems).toBe(3);
  });
});
