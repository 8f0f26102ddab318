import { describe, expectTypeOf, it } from 'vitest';
import {
  type Author,
  type authors,
  type Book,
  type books,
  type Review,
  type reviews,
} from '../../../test-support/library-resources.js';
import {
  type ClientRecord,
  type CreateInput,
  type InputKey,
  type RecordId,
  type RelationName,
  resourceClient,
  type UpdateInput,
} from '../src/index.js';

// The types of related resources (CONTRACT part 3): ids and server-set fields from the model,
// and `include` typed by the declaration's relations. Every `@ts-expect-error` is a mistake the
// client's types must refuse.

const bookClient = resourceClient<typeof books>({ baseUrl: '/api', name: 'book' });
const authorClient = resourceClient<typeof authors>({ baseUrl: '/api', name: 'author' });
const reviewClient = resourceClient<typeof reviews>({ baseUrl: '/api', name: 'review' });

type AuthorRecord = { id: number; name: string; country: string | null; createdAt: string; updatedAt: string };
type BookRecord = {
  id: number;
  title: string;
  authorId: number;
  year: number | null;
  isbn: string | null;
  price: string | null;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
};
type ReviewRecord = { id: string; bookId: number; rating: number; body: string | null; createdAt: string };
/** A record with members added, as one object type (expectTypeOf tells an intersection from it). */
type With<A, B> = { [K in keyof (A & B)]: (A & B)[K] };

describe('ids and server-set fields', () => {
  it('types records with the model id (a uuid string where declared) and plain server-set values', () => {
    expectTypeOf<ClientRecord<Author>>().toEqualTypeOf<AuthorRecord>();
    expectTypeOf<ClientRecord<Book>>().toEqualTypeOf<BookRecord>();
    expectTypeOf<ClientRecord<Review>>().toEqualTypeOf<ReviewRecord>();
    expectTypeOf<RecordId<Review>>().toEqualTypeOf<string>();
    expectTypeOf<RecordId<Book>>().toEqualTypeOf<number>();
    expectTypeOf<Parameters<typeof reviewClient.show>[0]>().toEqualTypeOf<string>();
    expectTypeOf(bookClient.destroy).parameter(0).toEqualTypeOf<number>();
    // @ts-expect-error: review ids are uuids
    reviewClient.show(1);
    // @ts-expect-error: book ids are numbers
    bookClient.update('1', {});
  });

  it('leaves id and every ServerSet field out of the bodies', () => {
    expectTypeOf<InputKey<Review>>().toEqualTypeOf<'bookId' | 'rating' | 'body'>();
    expectTypeOf<CreateInput<Review>>().toEqualTypeOf<{ bookId: number; rating: number; body?: string | null }>();
    expectTypeOf<UpdateInput<Author>>().toEqualTypeOf<{ name?: string; country?: string | null }>();
    expectTypeOf(bookClient.create).parameter(0).toEqualTypeOf<CreateInput<Book>>();
    // @ts-expect-error: createdAt is set by the server
    bookClient.create({ title: 'Dune', authorId: 1, createdAt: '2024-05-01T12:00:00.000Z' });
    // @ts-expect-error: updatedAt is set by the server
    authorClient.update(1, { updatedAt: '2024-05-01T12:00:00.000Z' });
    // @ts-expect-error: the server assigns the id
    reviewClient.create({ id: '3f2504e0-4f89-11d3-9a0c-0305e82c3301', bookId: 1, rating: 5 });
  });

  it('filters and sorts on server-set fields with plain values', () => {
    bookClient.index({ filter: { createdAt: '2024-05-01T12:00:00.000Z' }, sort: ['-updatedAt'] });
    reviewClient.index({ filter: { id: ['3f2504e0-4f89-11d3-9a0c-0305e82c3301'] } });
    // @ts-expect-error: review ids are uuids
    reviewClient.index({ filter: { id: 1 } });
  });
});

describe('include', () => {
  it('takes the relation names of the declaration only', () => {
    expectTypeOf<RelationName<typeof books>>().toEqualTypeOf<'author' | 'reviews'>();
    expectTypeOf<RelationName<typeof authors>>().toEqualTypeOf<'books'>();
    // @ts-expect-error: not a relation of book
    bookClient.show(1, { include: ['publisher'] });
    // @ts-expect-error: a relation of author, not of book
    bookClient.index({ include: ['books'] });
    // @ts-expect-error: a list, not a string
    bookClient.index({ include: 'author' });
  });

  it('adds exactly the relations named: a belongs-to as a record or null, a has-many as an array', async () => {
    expectTypeOf(await bookClient.show(1, { include: ['author'] })).toEqualTypeOf<
      With<BookRecord, { author: AuthorRecord | null }>
    >();
    const { records } = await bookClient.index({ include: ['author', 'reviews'], perPage: 10 });
    expectTypeOf(records).toEqualTypeOf<With<BookRecord, { author: AuthorRecord | null; reviews: ReviewRecord[] }>[]>();
    expectTypeOf(await authorClient.show(1, { include: ['books'] })).toEqualTypeOf<
      With<AuthorRecord, { books: BookRecord[] }>
    >();
    for await (const review of reviewClient.each({ include: ['book'] })) {
      expectTypeOf(review.book).toEqualTypeOf<BookRecord | null>();
    }
  });

  it('adds nothing without include, and optional relations for a list known only by its type', async () => {
    expectTypeOf(await bookClient.show(1)).toEqualTypeOf<BookRecord>();
    expectTypeOf(await bookClient.show(1, {})).toEqualTypeOf<BookRecord>();
    const names: RelationName<typeof books>[] = ['author'];
    expectTypeOf(await bookClient.show(1, { include: names })).toEqualTypeOf<
      With<BookRecord, { author?: AuthorRecord | null; reviews?: ReviewRecord[] }>
    >();
  });
});
