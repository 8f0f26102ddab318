import 'reflect-metadata';
import { defineResource, type ProblemCode as ServerProblemCode } from '@resourcery/core';
import type { ActionName } from '@resourcery/core/adapter';
import { IsInt, IsOptional, IsString } from 'class-validator';
import { describe, expectTypeOf, it } from 'vitest';
import { CLIENT_ACTIONS } from '../src/actions.js';
import {
  type ClientOptions,
  etagOf,
  type IndexResult,
  PROBLEM_CODES,
  type ProblemCode,
  ResourceError,
  type ResourceType,
  resourceClient,
  type ShowOptions,
  type WriteOptions,
} from '../src/index.js';

// Checked by the compiler only (Vitest's typecheck and `tsc`): every `@ts-expect-error` below is
// a mistake the client's types must refuse, so this file stops compiling if they accept it.

class Book {
  @IsString() name!: string;
  @IsString() author!: string;
  @IsOptional() @IsInt() year?: number | null;
  describe(): string {
    return `${this.name} by ${this.author}`;
  }
}
class Person {
  @IsString() name!: string;
}
const books = defineResource({ name: 'book', model: Book });
const people = defineResource({ name: 'person', plural: 'people', model: Person });
const client = resourceClient<typeof books>({ baseUrl: 'http://localhost:3000/api', name: 'book' });
type BookRecord = { id: number; name: string; author: string; year: number | null };

describe('records and inputs come from the model', () => {
  it('types records with id, every field, optional ones nullable, no methods', () => {
    // Called: show, index and each are generic in `include` and `fields`.
    expectTypeOf(client.show(1)).resolves.toEqualTypeOf<BookRecord>();
    expectTypeOf<Awaited<ReturnType<typeof client.show>>>().toEqualTypeOf<BookRecord>();
    expectTypeOf(client.create).returns.resolves.toEqualTypeOf<BookRecord>();
    expectTypeOf(client.update).returns.resolves.toEqualTypeOf<BookRecord>();
    expectTypeOf(client.index()).resolves.toEqualTypeOf<IndexResult<BookRecord>>();
    expectTypeOf(client.destroy).returns.resolves.toBeVoid();
  });

  it('requires the required fields on create, none on update', () => {
    expectTypeOf(client.create).parameter(0).toEqualTypeOf<{ name: string; author: string; year?: number | null }>();
    expectTypeOf(client.update).parameter(1).toEqualTypeOf<{ name?: string; author?: string; year?: number | null }>();
    // @ts-expect-error: author is required
    client.create({ name: 'Dune' });
    // @ts-expect-error: not a field of Book
    client.create({ name: 'Dune', author: 'Frank Herbert', title: 'Dune' });
    // @ts-expect-error: not a field of Book
    client.update(1, { title: 'Dune' });
    // @ts-expect-error: wrong type
    client.update(1, { year: '1965' });
    // @ts-expect-error: a method is not a field
    client.update(1, { describe: () => '' });
  });
});

describe('index parameters name the model fields', () => {
  it('accepts fields, id and descending keys', () => {
    client.index({
      filter: { author: ['A', 'B'], year: 1965, id: [1, 2] },
      sort: ['-name', 'id'],
      page: 2,
      perPage: 20,
    });
    client.index({ sort: '-year' });
  });

  it('refuses wrong field names and wrong value types', () => {
    // @ts-expect-error: not a field of Book
    client.index({ filter: { title: 'Dune' } });
    // @ts-expect-error: not a field of Book
    client.index({ sort: ['-title'] });
    // @ts-expect-error: not a sort key
    client.index({ sort: ['+name'] });
    // @ts-expect-error: year is a number
    client.index({ filter: { year: 'nineteen' } });
    // @ts-expect-error: null cannot be filtered on
    client.index({ filter: { year: null } });
    // @ts-expect-error: perPage, not per_page
    client.index({ per_page: 10 });
  });
});

describe('the options check the declaration', () => {
  it('requires the declared name, and the declared plural when there is one', () => {
    resourceClient<typeof people>({ baseUrl: '/api', name: 'person', plural: 'people' });
    // @ts-expect-error: the resource is named "book"
    resourceClient<typeof books>({ baseUrl: '/api', name: 'books' });
    // @ts-expect-error: "people" is declared, so it must be given
    resourceClient<typeof people>({ baseUrl: '/api', name: 'person' });
    // @ts-expect-error: and be the declared one
    resourceClient<typeof people>({ baseUrl: '/api', name: 'person', plural: 'persons' });
  });

  it('works from a hand-written resource type, without the server code', () => {
    type Notes = ResourceType<{ text: string; pinned?: boolean }, 'note'>;
    const notes = resourceClient<Notes>({ baseUrl: '/api', name: 'note' });
    expectTypeOf(notes.show(1)).resolves.toEqualTypeOf<{ id: number; text: string; pinned: boolean | null }>();
    // @ts-expect-error: not a field of the note
    notes.index({ filter: { title: 'x' } });
  });
});

it('types the errors', () => {
  expectTypeOf<ResourceError['errors']>().toEqualTypeOf<Readonly<Record<string, readonly string[]>>>();
  expectTypeOf<ResourceError['status']>().toBeNumber();
});

it('knows the problem codes and actions of the server, as types', () => {
  expectTypeOf<(typeof PROBLEM_CODES)[number]>().toEqualTypeOf<ServerProblemCode>();
  expectTypeOf<keyof typeof CLIENT_ACTIONS>().toEqualTypeOf<ActionName>();
  expectTypeOf<'uri_too_long'>().toExtend<ProblemCode>();
  expectTypeOf<ResourceError['code']>().toEqualTypeOf<ProblemCode>();
});

it('takes a record of the resource, or an ETag, as a condition, and a boolean or estimated count', () => {
  const held = {} as BookRecord;
  const showOptions: ShowOptions<BookRecord> = { ifNoneMatch: held };
  const writeOptions: WriteOptions<BookRecord> = { ifMatch: held };
  expectTypeOf(client.show(1, showOptions)).resolves.toEqualTypeOf<BookRecord>();
  expectTypeOf(client.update(1, {}, writeOptions)).resolves.toEqualTypeOf<BookRecord>();
  expectTypeOf(etagOf(held)).toEqualTypeOf<string | undefined>();
  client.destroy(1, { ifMatch: '*' });
  client.index({ count: false });
  client.index({ count: 'estimated' });
  expectTypeOf(client.index({ count: 'estimated' }))
    .resolves.toHaveProperty('estimated')
    .toEqualTypeOf<boolean>();
  // @ts-expect-error: not a record of this resource
  client.show(1, { ifNoneMatch: { id: 1 } });
  // @ts-expect-error: If-None-Match takes the copy held, not a tag
  client.show(1, { ifNoneMatch: '"abc"' });
  // @ts-expect-error: count is a boolean or 'estimated'
  client.index({ count: 'false' });
  // @ts-expect-error: the value is `estimated`
  client.index({ count: 'estimate' });
});

it('takes a bearer token: a string, or a function answering one (or none), at once or later', () => {
  const baseUrl = '/api';
  resourceClient<typeof books>({ baseUrl, name: 'book', token: 'eyJhbGciOiJIUzI1NiJ9.e30.x' });
  resourceClient<typeof books>({ baseUrl, name: 'book', token: () => 'eyJ...' });
  resourceClient<typeof books>({ baseUrl, name: 'book', token: async () => 'eyJ...' });
  resourceClient<typeof books>({ baseUrl, name: 'book', token: () => undefined });
  expectTypeOf<ClientOptions<typeof books>['token']>().toEqualTypeOf<
    string | (() => string | undefined | Promise<string | undefined>) | undefined
  >();
  // @ts-expect-error: a token is a string
  resourceClient<typeof books>({ baseUrl, name: 'book', token: 42 });
  // @ts-expect-error: the function answers the token, not the header
  resourceClient<typeof books>({ baseUrl, name: 'book', token: () => ({ authorization: 'Bearer x' }) });
  // @ts-expect-error: a promise is not a token; a function answering one is
  resourceClient<typeof books>({ baseUrl, name: 'book', token: Promise.resolve('eyJ...') });
});
