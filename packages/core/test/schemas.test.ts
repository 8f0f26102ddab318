// What a store is told to create: the schemas of an API's resources (with the foreign keys their
// relations make), which attributes get an index, and the composite indexes a resource declares.
import 'reflect-metadata';
import { belongsTo, createApi, defineResource, hasMany, memoryStore } from '@resourcery/core';
import { compiledResource, resourceSchemas } from '@resourcery/core/adapter';
import type { CollectionSchema, Store } from '@resourcery/core/store';
import { IsBoolean, IsInt, IsObject, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { describe, expect, it } from 'vitest';

class Author {
  @IsString() @Length(1, 200) name!: string;
}
class Book {
  @IsString() @Length(1, 500) title!: string;
  @IsInt() authorId!: number;
  @IsOptional() @IsInt() year?: number | null;
  @IsOptional() @IsInt() editorId?: number | null;
  @IsString() @MaxLength(501) subtitle!: string;
  @IsString() @MaxLength(20000) body!: string;
  @IsString() notes!: string;
  @IsBoolean() available!: boolean;
  @IsObject() meta!: Record<string, unknown>;
}

const authors = defineResource({
  name: 'author',
  model: Author,
  relations: { books: hasMany(Book, { foreignKey: 'authorId', onDelete: 'cascade' }) },
});
const books = defineResource({
  name: 'book',
  model: Book,
  indexes: [['authorId', '-year', 'id']],
  relations: {
    author: belongsTo(Author, { foreignKey: 'authorId' }),
    editor: belongsTo(() => authors, { foreignKey: 'editorId', onDelete: 'nullify' }),
  },
});

/** The schemas a store receives from `createApi`, in the order it receives them. */
function mounted(resources: Parameters<typeof createApi>[0]['resources']): CollectionSchema[] {
  const store = memoryStore();
  const seen: CollectionSchema[] = [];
  const recording: Store = Object.assign(Object.create(store) as Store, {
    collection: (schema: CollectionSchema) => {
      seen.push(schema);
      return store.collection(schema);
    },
  });
  createApi({ resources, store: recording });
  return seen;
}

describe('resourceSchemas', () => {
  it("gives exactly the schemas createApi gives its store, foreign keys included (compiledResource's have none)", () => {
    expect(compiledResource(books).schema.references).toBeUndefined();
    const schemas = resourceSchemas([authors, books]);
    expect(schemas).toEqual(mounted([authors, books]));
    expect(schemas.map((schema) => schema.name)).toEqual(['authors', 'books']);
    expect(schemas[1]?.references).toEqual([
      { field: 'authorId', collection: 'authors', onDelete: 'cascade' },
      { field: 'editorId', collection: 'authors', onDelete: 'nullify' },
    ]);
    expect(resourceSchemas([books, authors]).map((schema) => schema.name)).toEqual(['books', 'authors']);
  });

  it('refuses what createApi refuses, naming itself', () => {
    expect(() => resourceSchemas([books])).toThrow(
      'resourceSchemas: relation book.author names a resource this API does not serve: add it to `resources`',
    );
    expect(() => resourceSchemas([{} as never])).toThrow('Not a resource');
  });
});

describe('what gets an index', () => {
  it('every filtered or sorted attribute but strings longer than 500 characters (and JSON)', () => {
    expect(compiledResource(books).schema.indexed).toEqual(['title', 'authorId', 'year', 'editorId', 'available']);
    const chosen = defineResource({
      name: 'chosen',
      model: Book,
      fields: { filter: ['year'], sort: ['title', 'body'] },
    });
    expect(compiledResource(chosen).schema.indexed).toEqual(['year', 'title']);
  });

  it('the declared composite indexes, in order, "-" meaning descending', () => {
    expect(compiledResource(books).schema.indexes).toEqual([
      [
        { field: 'authorId', direction: 'asc' },
        { field: 'year', direction: 'desc' },
        { field: 'id', direction: 'asc' },
      ],
    ]);
    expect(compiledResource(authors).schema.indexes).toBeUndefined();
  });

  it.each([
    [[['nope']], 'defineResource(shelf): indexes names "nope", which is not a field'],
    [[['-nope', 'id']], 'defineResource(shelf): indexes names "nope", which is not a field'],
    [[[]], 'defineResource(shelf): indexes must be a list of indexes'],
    ['title', 'defineResource(shelf): indexes must be a list of indexes'],
    [[['title', 3]], 'defineResource(shelf): indexes must be a list of indexes'],
    [[['year', '-year']], 'defineResource(shelf): indexes lists "year" twice in [year, -year]'],
    [[['year'], ['year']], 'defineResource(shelf): indexes declares [year] twice'],
    [[['meta']], 'defineResource(shelf): indexes names "meta", which holds JSON and cannot be indexed'],
    [
      [['body']],
      'defineResource(shelf): indexes [body]: its strings hold up to 20000 characters together, more than an index holds whole (500)',
    ],
    [[['notes', 'id']], 'its strings hold up to Infinity characters'],
    [[['title', 'subtitle']], 'its strings hold up to 1001 characters together'],
  ])('refuses indexes %j at declaration', (indexes, message) => {
    expect(() => defineResource({ name: 'shelf', model: Book, indexes: indexes as never })).toThrow(message);
  });

  it('accepts up to 500 characters of strings in one index', () => {
    expect(() =>
      defineResource({ name: 'shelf', model: Book, indexes: [['-title', 'year', 'available']] }),
    ).not.toThrow();
  });
});
