import { describe, expectTypeOf, it } from 'vitest';
import type { Author, Book, books, reviews } from '../../../test-support/library-resources.js';
import {
  type ClientRecord,
  type FieldFilter,
  type FilterOperators,
  type IndexResult,
  type RelatedFilter,
  resourceClient,
  type WithFields,
} from '../src/index.js';

// The types of the query language (CONTRACT part 3): operators typed by the field's type,
// filters through a belongs-to relation typed by its model, `fields` narrowing the records.
// Every `@ts-expect-error` is a mistake the client's types must refuse.

const bookClient = resourceClient<typeof books>({ baseUrl: '/api', name: 'book' });
const reviewClient = resourceClient<typeof reviews>({ baseUrl: '/api', name: 'review' });
type AuthorRecord = ClientRecord<Author>;

describe('operators', () => {
  it('are typed by the field: numbers compare, strings also match text, nullable fields take null', () => {
    bookClient.index({
      filter: {
        year: { gte: 2000, lt: 2010 },
        title: { prefix: 'The', contains: 'of', gt: 'A' },
        isbn: { null: true },
      },
    });
    bookClient.index({ filter: { id: { ne: 3 }, year: [1968, 1969], price: { gte: '10', lte: '20.5' } } });
    expectTypeOf<FilterOperators<Book, 'year'>>().toEqualTypeOf<{
      eq?: number;
      ne?: number;
      gt?: number;
      gte?: number;
      lt?: number;
      lte?: number;
      null?: boolean;
    }>();
    expectTypeOf<FilterOperators<Book, 'authorId'>>().not.toHaveProperty('null');
    expectTypeOf<FilterOperators<Book, 'title'>>().toHaveProperty('prefix');
    expectTypeOf<FieldFilter<Book, 'year'>>().toEqualTypeOf<
      number | readonly number[] | FilterOperators<Book, 'year'>
    >();
  });

  it('refuse an operand of another type, and an operator the field does not take', () => {
    // @ts-expect-error: a title compares with strings
    bookClient.index({ filter: { title: { gte: 5 } } });
    // @ts-expect-error: prefix is for strings
    bookClient.index({ filter: { year: { prefix: 'x' } } });
    // @ts-expect-error: title is required, never null
    bookClient.index({ filter: { title: { null: true } } });
    // @ts-expect-error: not an operator
    bookClient.index({ filter: { year: { like: 1 } } });
    // @ts-expect-error: null takes a boolean
    bookClient.index({ filter: { year: { null: 'true' } } });
    // @ts-expect-error: a uuid id is compared, not searched
    reviewClient.index({ filter: { id: { prefix: '3f25' } } });
  });

  it('take booleans with eq and ne only', () => {
    type Flags = { done: boolean; archived?: boolean | null };
    expectTypeOf<FilterOperators<Flags, 'done'>>().toEqualTypeOf<{ eq?: boolean; ne?: boolean }>();
    expectTypeOf<FilterOperators<Flags, 'archived'>>().toEqualTypeOf<{ eq?: boolean; ne?: boolean; null?: boolean }>();
  });
});

describe('filters through a belongs-to relation', () => {
  it('take relation.field keys typed by the related model', () => {
    bookClient.index({ filter: { 'author.country': 'UK', 'author.name': { prefix: 'Le' }, 'author.id': [1, 2] } });
    reviewClient.index({ filter: { 'book.year': { gte: 1950 }, 'book.title': { contains: 'Sea' } } });
    // @ts-expect-error: one relation deep only
    reviewClient.index({ filter: { 'book.author.country': 'UK' } });
    expectTypeOf<keyof RelatedFilter<typeof books>>().toEqualTypeOf<
      'author.id' | 'author.name' | 'author.country' | 'author.createdAt' | 'author.updatedAt'
    >();
    expectTypeOf<RelatedFilter<typeof books>['author.country']>().toEqualTypeOf<
      FieldFilter<Author, 'country'> | undefined
    >();
  });

  it('refuse a has-many relation, an unknown field and a value of another type', () => {
    // @ts-expect-error: reviews is a has-many relation
    bookClient.index({ filter: { 'reviews.rating': 5 } });
    // @ts-expect-error: not a field of the author
    bookClient.index({ filter: { 'author.title': 'x' } });
    // @ts-expect-error: the author's id is a number
    bookClient.index({ filter: { 'author.id': 'x' } });
    // @ts-expect-error: country is a string
    bookClient.index({ filter: { 'author.country': { gte: 1 } } });
  });
});

describe('fields', () => {
  it('narrows records to id and the fields named, relations of include added', async () => {
    const { records } = await bookClient.index({ fields: ['title', 'year'] });
    expectTypeOf(records).toEqualTypeOf<{ id: number; title: string; year: number | null }[]>();
    const shown = await bookClient.show(1, { fields: ['title'], include: ['author'] });
    expectTypeOf(shown).toEqualTypeOf<{ id: number; title: string; author: AuthorRecord | null }>();
    for await (const review of reviewClient.each({ fields: ['rating'] })) {
      expectTypeOf(review).toEqualTypeOf<{ id: string; rating: number }>();
    }
  });

  it('makes the fields optional for a list known only by its type, and refuses unknown ones', async () => {
    const names: ('title' | 'year')[] = ['title'];
    expectTypeOf(await bookClient.show(1, { fields: names })).toEqualTypeOf<{
      id: number;
      title?: string;
      year?: number | null;
    }>();
    expectTypeOf<WithFields<ClientRecord<Book>, []>>().toEqualTypeOf<ClientRecord<Book>>();
    expectTypeOf((await bookClient.index({ fields: ['id'] })).records).toEqualTypeOf<{ id: number }[]>();
    // @ts-expect-error: not a field of the book
    bookClient.show(1, { fields: ['publisher'] });
  });
});

describe('cursor pagination', () => {
  it('takes after and answers nextCursor', async () => {
    const page = await reviewClient.index({ perPage: 10 });
    expectTypeOf(page.nextCursor).toEqualTypeOf<string | undefined>();
    await reviewClient.index({ after: page.nextCursor, perPage: 10 });
    expectTypeOf<IndexResult<number>['nextCursor']>().toEqualTypeOf<string | undefined>();
    // @ts-expect-error: a cursor is a string
    reviewClient.index({ after: 3 });
  });
});

describe('search', () => {
  it('takes q as a string, with the other index options', () => {
    bookClient.index({ q: 'left hand', filter: { year: { gte: 1960 } }, sort: '-year', perPage: 10 });
    // @ts-expect-error q is text
    bookClient.index({ q: 42 });
  });
});
