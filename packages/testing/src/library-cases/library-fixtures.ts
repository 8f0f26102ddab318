import { expect } from 'vitest';
import { expectProblem, type HttpClient, type Reply } from '../http-client.js';

// Records of CONTRACT part 3's library (authors, books, reviews) as the wire shows them, and
// helpers that create them and assert their exact shape.

export interface AuthorJson {
  id: number;
  name: string;
  country: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface BookJson {
  id: number;
  title: string;
  authorId: number;
  year: number | null;
  isbn: string | null;
  price: string | null;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ReviewJson {
  id: string;
  bookId: number;
  rating: number;
  body: string | null;
  createdAt: string;
}

/** A date-time in the canonical form every store answers: UTC with milliseconds. */
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** A uuid in lowercase canonical form. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DECIMAL_2 = /^-?\d+\.\d{2}$/;

let serial = 0;
/** A value no other call of this process answers: keeps names and ISBNs apart between cases. */
export function unique(prefix: string): string {
  serial += 1;
  return `${prefix}${String(serial).padStart(6, '0')}`;
}

/** An ISBN-13-like string (13 digits) not used before by this process. */
export function freshIsbn(): string {
  return unique('9780000');
}

function expectTimestamp(value: unknown): void {
  expect(value).toMatch(DATE_TIME);
  expect(new Date(value as string).toISOString()).toBe(value);
}

function expectKeys(value: unknown, keys: readonly string[]): void {
  expect(value).toBeTypeOf('object');
  expect(value).not.toBeNull();
  expect(Object.keys(value as object).sort()).toEqual([...keys].sort());
}

/** Asserts a whole author (exactly its fields, each of its wire type); answers it. */
export function expectAuthor(value: unknown): AuthorJson {
  expectKeys(value, ['id', 'name', 'country', 'createdAt', 'updatedAt']);
  const author = value as AuthorJson;
  expect(Number.isSafeInteger(author.id) && author.id > 0, `id ${author.id}`).toBe(true);
  expect(author.name).toBeTypeOf('string');
  if (author.country !== null) expect(author.country).toBeTypeOf('string');
  expectTimestamp(author.createdAt);
  expectTimestamp(author.updatedAt);
  expect(author.createdAt <= author.updatedAt, 'createdAt <= updatedAt').toBe(true);
  return author;
}

/** Asserts a whole book (exactly its fields, each of its wire type); answers it. */
export function expectBook(value: unknown): BookJson {
  expectKeys(value, ['id', 'title', 'authorId', 'year', 'isbn', 'price', 'publishedAt', 'createdAt', 'updatedAt']);
  const book = value as BookJson;
  expect(Number.isSafeInteger(book.id) && book.id > 0, `id ${book.id}`).toBe(true);
  expect(book.title).toBeTypeOf('string');
  expect(Number.isSafeInteger(book.authorId)).toBe(true);
  if (book.year !== null) expect(Number.isSafeInteger(book.year)).toBe(true);
  if (book.isbn !== null) expect(book.isbn).toBeTypeOf('string');
  if (book.price !== null) expect(book.price).toMatch(DECIMAL_2);
  if (book.publishedAt !== null) expectTimestamp(book.publishedAt);
  expectTimestamp(book.createdAt);
  expectTimestamp(book.updatedAt);
  expect(book.createdAt <= book.updatedAt, 'createdAt <= updatedAt').toBe(true);
  return book;
}

/** Asserts a whole review (exactly its fields, a lowercase uuid id); answers it. */
export function expectReview(value: unknown): ReviewJson {
  expectKeys(value, ['id', 'bookId', 'rating', 'body', 'createdAt']);
  const review = value as ReviewJson;
  expect(review.id).toMatch(UUID);
  expect(Number.isSafeInteger(review.bookId)).toBe(true);
  expect([1, 2, 3, 4, 5]).toContain(review.rating);
  if (review.body !== null) expect(review.body).toBeTypeOf('string');
  expectTimestamp(review.createdAt);
  return review;
}

/** The record under `key` of a 200 answer, checked by `check`. */
function answered<T>(reply: Reply, key: string, check: (value: unknown) => T): T {
  expect(reply.status, reply.text).toBe(200);
  expect(Object.keys(reply.body)).toEqual([key]);
  return check(reply.body[key]);
}

export async function createAuthor(api: HttpClient, values: Partial<AuthorJson> = {}): Promise<AuthorJson> {
  const reply = await api.json('POST', '/authors', { name: unique('Author '), ...values });
  return answered(reply, 'author', expectAuthor);
}

export async function createBook(api: HttpClient, authorId: number, values: Record<string, unknown> = {}) {
  const reply = await api.json('POST', '/books', { title: unique('Book '), authorId, ...values });
  return answered(reply, 'book', expectBook);
}

/** Creates books one after the other (ids follow the order), each with its own values. */
export async function createBooks(api: HttpClient, authorId: number, list: readonly Record<string, unknown>[]) {
  const created: BookJson[] = [];
  for (const values of list) created.push(await createBook(api, authorId, values));
  return created;
}

export async function createReview(api: HttpClient, bookId: number, values: Partial<ReviewJson> = {}) {
  const reply = await api.json('POST', '/reviews', { bookId, rating: 4, ...values });
  return answered(reply, 'review', expectReview);
}

/** Show: the record under its singular key, asserting a 200. */
export async function show<T>(api: HttpClient, path: string, key: string): Promise<T> {
  const reply = await api.get(path);
  expect(reply.status, reply.text).toBe(200);
  expect(Object.keys(reply.body)).toEqual([key]);
  return reply.body[key] as T;
}

/** Index: the list under its plural key, asserting a 200. */
export async function list<T>(api: HttpClient, path: string): Promise<T[]> {
  const reply = await api.get(path);
  expect(reply.status, reply.text).toBe(200);
  const key = new URL(path, 'http://x').pathname.replace(/^\//, '');
  expect(Object.keys(reply.body)).toEqual([key]);
  return reply.body[key] as T[];
}

/** `X-Total-Count` of an index path (everything the filters in it match). */
export async function total(api: HttpClient, path: string): Promise<number> {
  const reply = await api.get(`${path}${path.includes('?') ? '&' : '?'}per_page=1&count=true`);
  expect(reply.status, reply.text).toBe(200);
  return Number(reply.headers.get('x-total-count'));
}

/** Asserts a 422 problem whose `errors` is exactly this object (field → messages). */
export function expectErrors(reply: Reply, errors: Record<string, string[]>): void {
  expect(expectProblem(reply, 422).errors).toEqual(errors);
}

/**
 * Asserts that each `[path, parameter]` answers 400 with a `detail` that names `parameter`, the
 * query parameter exactly as the client sent it (decoded), and names no other `filter[...]`.
 */
export async function expectNamedParameters(api: HttpClient, cases: readonly (readonly [string, string])[]) {
  for (const [path, parameter] of cases) {
    const detail: string = expectProblem(await api.get(path), 400).detail;
    expect(detail, path).toContain(parameter);
    const named = detail.match(/filter\[[^\]]*\](?:\[[^\]]*\])?/g) ?? [];
    expect(new Set(named), `${path}: ${detail}`).toEqual(new Set([parameter]));
  }
}

/** Waits until the clock has moved on, so that a write gets a later timestamp than the one before it. */
export function tick(ms = 5): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Compares strings by code point, as ids of uuid records sort. */
export function codePointOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
