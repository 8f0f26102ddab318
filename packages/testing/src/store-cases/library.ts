import type { Collection, CollectionSchema, ListQuery, Store, StoredRecord } from '@resourcery/core/store';
import { expect } from 'vitest';
import type { CaseHome, StoreCaseGroup } from './fixtures.js';

/** The collections of the relational cases, referenced ones first. */
export const LIBRARY = ['authors', 'books', 'reviews', 'votes', 'awards'] as const;

/** The name of one collection of the library. */
export type LibraryName = (typeof LIBRARY)[number];

/**
 * The relational schema of the suite, each collection named `<prefix>_<collection>`:
 * - `authors` (integer id): `name`, `country` and `born` (a date) or null;
 * - `books` (integer id): `title`, `authorId` (an author, restrict), `isbn` or null (unique),
 *   `price` (decimal, 2 places, 15 digits) or null, `publishedAt` (date-time) or null, `meta`
 *   (json) or null, `format` (default `paperback`) or null, `copies` (default 0), `createdAt`;
 *   unique `[isbn]` and `[authorId, title]`;
 * - `reviews` (uuid id): `bookId` (a book, cascade), `rating`, `body` or null;
 * - `votes` (integer id): `reviewId` (a review's uuid, cascade), `up`;
 * - `awards` (integer id): `name`, `bookId` (a book, nullify) or null, `reviewId` (a review,
 *   restrict) or null.
 *
 * @example
 * ```ts
 * const schemas = librarySchemas('lib_1');
 * for (const schema of Object.values(schemas)) store.collection(schema);
 * await store.init?.(Object.values(schemas));
 * ```
 */
export function librarySchemas(prefix: string): Record<LibraryName, CollectionSchema> {
  const name = (collection: LibraryName) => `${prefix}_${collection}`;
  return {
    authors: {
      name: name('authors'),
      attributes: [
        { name: 'id', type: 'integer', nullable: false },
        { name: 'name', type: 'string', nullable: false, maxLength: 200 },
        { name: 'country', type: 'string', nullable: true, maxLength: 100 },
        { name: 'born', type: 'date', nullable: true },
      ],
      indexed: ['name', 'country', 'born'],
    },
    books: {
      name: name('books'),
      attributes: [
        { name: 'id', type: 'integer', nullable: false },
        { name: 'title', type: 'string', nullable: false, maxLength: 500 },
        { name: 'authorId', type: 'integer', nullable: false },
        { name: 'isbn', type: 'string', nullable: true, maxLength: 20 },
        { name: 'price', type: 'decimal', nullable: true, scale: 2, precision: 15 },
        { name: 'publishedAt', type: 'date-time', nullable: true },
        { name: 'meta', type: 'json', nullable: true },
        { name: 'format', type: 'string', nullable: true, maxLength: 20, default: 'paperback' },
        { name: 'copies', type: 'integer', nullable: false, default: 0 },
        { name: 'createdAt', type: 'date-time', nullable: false },
      ],
      indexed: ['title', 'authorId', 'isbn', 'price', 'publishedAt', 'createdAt'],
      unique: [['isbn'], ['authorId', 'title']],
      references: [{ field: 'authorId', collection: name('authors'), onDelete: 'restrict' }],
    },
    reviews: {
      name: name('reviews'),
      attributes: [
        { name: 'id', type: 'uuid', nullable: false },
        { name: 'bookId', type: 'integer', nullable: false },
        { name: 'rating', type: 'integer', nullable: false },
        { name: 'body', type: 'string', nullable: true },
      ],
      indexed: ['bookId', 'rating'],
      references: [{ field: 'bookId', collection: name('books'), onDelete: 'cascade' }],
    },
    votes: {
      name: name('votes'),
      attributes: [
        { name: 'id', type: 'integer', nullable: false },
        { name: 'reviewId', type: 'uuid', nullable: false },
        { name: 'up', type: 'boolean', nullable: false },
      ],
      indexed: ['reviewId'],
      references: [{ field: 'reviewId', collection: name('reviews'), onDelete: 'cascade' }],
    },
    awards: {
      name: name('awards'),
      attributes: [
        { name: 'id', type: 'integer', nullable: false },
        { name: 'name', type: 'string', nullable: false, maxLength: 200 },
        { name: 'bookId', type: 'integer', nullable: true },
        { name: 'reviewId', type: 'uuid', nullable: true },
      ],
      indexed: ['bookId', 'reviewId'],
      references: [
        { field: 'bookId', collection: name('books'), onDelete: 'nullify' },
        { field: 'reviewId', collection: name('reviews'), onDelete: 'restrict' },
      ],
    },
  };
}

/** A relational case's world: the store and one fresh collection of each library schema. */
export type Library = { readonly store: Store; readonly schemas: Record<LibraryName, CollectionSchema> } & Record<
  LibraryName,
  Collection
>;

/** A case over the library's collections. */
export type LibraryCase = (db: Library) => Promise<void>;

/** Declares a group of cases that each get fresh collections of every {@link librarySchemas}. */
export function libraryGroup(name: string, cases: Record<string, LibraryCase>): StoreCaseGroup {
  const wrapped = Object.fromEntries(
    Object.entries(cases).map(([caseName, test]) => [caseName, (_: Collection, home: CaseHome) => test(library(home))]),
  );
  return { name, schemas: (prefix) => Object.values(librarySchemas(prefix)), cases: wrapped };
}

function library(home: CaseHome): Library {
  const entries = LIBRARY.map((name, index) => [name, home.collections[index] as Collection] as const);
  const schemas = Object.fromEntries(LIBRARY.map((name, index) => [name, home.schemas[index]]));
  return { store: home.store, schemas, ...Object.fromEntries(entries) } as Library;
}

/** The `createdAt` of every book the cases create, unless they say otherwise. */
export const CREATED = '2024-01-01T00:00:00.000Z';

/** Creates a book with `createdAt` filled in. */
export function addBook(db: Pick<Library, 'books'>, values: Record<string, unknown>): Promise<StoredRecord> {
  return db.books.create({ createdAt: CREATED, ...values } as Partial<StoredRecord>);
}

/** A lowercase uuid (version 4 layout) whose first group is `head` padded with zeros. */
export function uuid(head: string, last = '000000000000'): string {
  return `${head.padEnd(8, '0')}-0000-4000-8000-${last}`;
}

/** Every record of a collection matching the query's parts, in id order by default, unpaged. */
export async function all(collection: Collection, query: Partial<ListQuery> = {}): Promise<StoredRecord[]> {
  const base: ListQuery = {
    where: [],
    order: [{ field: 'id', direction: 'asc' }],
    limit: 1000,
    offset: 0,
    count: false,
  };
  return (await collection.list({ ...base, ...query })).records;
}

/** What a `ConstraintViolation` tells the API (kind, field, referencedBy), read off a rejected write. */
export async function violation(
  write: Promise<unknown>,
): Promise<{ name: string; kind: unknown; field: unknown; referencedBy: unknown }> {
  const error = (await write.then(
    () => expect.unreachable('the write should have been refused'),
    (reason: unknown) => reason,
  )) as { name: string; kind: unknown; field: unknown; referencedBy: unknown };
  return { name: error.name, kind: error.kind, field: error.field, referencedBy: error.referencedBy };
}
