// The order in which stores create collections, and `createApi` mounts resources: referenced
// ones first. One function serves the core and the SQL stores, so that both refuse the same cycles.
import type { CollectionSchema } from '@resourcery/core/store';
import { referencedFirst } from '@resourcery/core/store';
import { describe, expect, it } from 'vitest';

const collection = (name: string, ...refersTo: string[]): CollectionSchema => ({
  name,
  attributes: [{ name: 'id', type: 'integer', nullable: false }],
  indexed: [],
  references: refersTo.map((other) => ({ field: `${other}Id`, collection: other, onDelete: 'restrict' })),
});

const names = (schemas: readonly CollectionSchema[]) => schemas.map((schema) => schema.name);

describe('referencedFirst', () => {
  it('puts every referenced collection before those referring to it, keeping the given order otherwise', () => {
    const ordered = referencedFirst([
      collection('reviews', 'books', 'readers'),
      collection('readers'),
      collection('books', 'authors'),
      collection('authors'),
      collection('tags'),
    ]);
    expect(names(ordered)).toEqual(['authors', 'books', 'readers', 'reviews', 'tags']);
  });

  it('leaves out nothing, and ignores references to collections it was not given', () => {
    expect(names(referencedFirst([collection('books', 'publishers'), collection('authors')]))).toEqual([
      'books',
      'authors',
    ]);
  });

  it('accepts a collection that refers to itself', () => {
    expect(names(referencedFirst([collection('people', 'people'), collection('pets', 'people')]))).toEqual([
      'people',
      'pets',
    ]);
  });

  it('refuses collections that refer to each other in a cycle, naming it', () => {
    expect(() =>
      referencedFirst([collection('tags'), collection('a', 'b'), collection('b', 'c'), collection('c', 'a')]),
    ).toThrow('Collections refer to each other in a cycle (a → b → c → a)');
  });

  it('keeps two items of one collection name (two resources of one collection, on two stores)', () => {
    const items = [{ schema: collection('books', 'authors') }, { schema: collection('authors') }];
    const drafts = { schema: collection('books', 'authors') };
    expect(referencedFirst([...items, drafts], (item) => item.schema)).toEqual([items[1], items[0], drafts]);
  });

  it('sorts any items through the schema each one has', () => {
    const items = [{ schema: collection('books', 'authors') }, { schema: collection('authors') }];
    expect(referencedFirst(items, (item) => item.schema)).toEqual([items[1], items[0]]);
  });
});
