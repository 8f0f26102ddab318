import { expect } from 'vitest';

/** A book as the contract shows it on the wire. */
export interface BookJson {
  id: number;
  name: string;
  author: string;
}

/** One HTTP exchange, with the body already read (so the connection is free again). */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON, else `undefined`. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members of response bodies
  body: any;
}

/** What {@link HttpClient.send} may add to a request. */
export interface SendOptions {
  /** A string, bytes or a stream (sent chunked); `undefined` sends no body. */
  body?: string | Uint8Array | ReadableStream<Uint8Array>;
  /** `Content-Type` to send; `null` sends none (the body must then be bytes or a stream). */
  contentType?: string | null;
  signal?: AbortSignal;
  /** Further request headers (`If-Match`, ...). */
  headers?: Record<string, string>;
}

const JSON_TYPE = 'application/json';

/**
 * A small client for the contract's `book` resource over real HTTP (global `fetch`). Every
 * helper that expects success asserts it, so cases read as the contract does.
 */
export class HttpClient {
  constructor(readonly baseUrl: string) {}

  /** Absolute URL of a path below the base (`/books?sort=name`); absolute URLs pass through. */
  url(path: string): string {
    return /^https?:/.test(path) ? path : `${this.baseUrl}${path}`;
  }

  /** Absolute URL of a `Link` or `Location` target, which may be relative to the server. */
  resolve(reference: string): string {
    return new URL(reference, this.baseUrl).href;
  }

  async send(method: string, path: string, options: SendOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    const contentType = options.contentType === undefined ? JSON_TYPE : options.contentType;
    if (options.body !== undefined && contentType !== null) headers['content-type'] = contentType;
    const init = { method, headers, body: options.body, signal: options.signal } as RequestInit;
    // Streams are sent chunked; Node's fetch requires half-duplex for them.
    if (options.body instanceof ReadableStream) Object.assign(init, { duplex: 'half' });
    const response = await fetch(this.url(path), init);
    const text = await response.text();
    let body: unknown;
    if (/json/.test(response.headers.get('content-type') ?? '') && text !== '') {
      body = JSON.parse(text);
    }
    return { status: response.status, headers: response.headers, text, body };
  }

  /** Sends `value` serialized as JSON (`application/json`). */
  json(method: string, path: string, value: unknown): Promise<Reply> {
    return this.send(method, path, { body: JSON.stringify(value) });
  }

  get(path: string): Promise<Reply> {
    return this.send('GET', path);
  }

  /** Creates a book and answers it; fails the test unless the create succeeds. */
  async create(values: { name: string; author: string }): Promise<BookJson> {
    const reply = await this.json('POST', '/books', values);
    expect(reply.status, reply.text).toBe(200);
    return expectRecord(reply.body.book);
  }

  /** Creates books one after the other, so that ids follow the given order. */
  async createAll(list: readonly { name: string; author: string }[]): Promise<BookJson[]> {
    const created: BookJson[] = [];
    for (const values of list) created.push(await this.create(values));
    return created;
  }

  /** The books listed by `GET /books?<query>`, asserting a 200. */
  async list(query = ''): Promise<BookJson[]> {
    const reply = await this.get(`/books?${query}`);
    expect(reply.status, reply.text).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['books']);
    return (reply.body.books as unknown[]).map(expectRecord);
  }

  /** `X-Total-Count` of `GET /books?<query>`. */
  async count(query = ''): Promise<number> {
    const reply = await this.get(`/books?per_page=1${query ? `&${query}` : ''}`);
    expect(reply.status, reply.text).toBe(200);
    const total = reply.headers.get('x-total-count');
    expect(total).toMatch(/^(0|[1-9][0-9]*)$/);
    return Number(total);
  }

  /** The stored book, or `undefined` when show answers 404. */
  async find(id: number): Promise<BookJson | undefined> {
    const reply = await this.get(`/books/${id}`);
    if (reply.status === 404) return undefined;
    expect(reply.status, reply.text).toBe(200);
    return expectRecord(reply.body.book);
  }
}

/** Asserts that a value is a whole book record: exactly `id`, `name` and `author`. */
export function expectRecord(value: unknown): BookJson {
  expect(value).toBeTypeOf('object');
  const record = value as BookJson;
  expect(Object.keys(record).sort()).toEqual(['author', 'id', 'name']);
  expect(Number.isSafeInteger(record.id) && record.id > 0, `id ${record.id} is a positive integer`).toBe(true);
  expect(record.name).toBeTypeOf('string');
  expect(record.author).toBeTypeOf('string');
  return record;
}

// Stack frames ("    at fn (file.js:1:2)"), file URLs and source paths must never reach a client.
const LEAKS = [/\n\s*at /, /\bat \S+ \(.*:\d+:\d+\)/, /file:\/\//, /node_modules/, /[\\/][\w.-]+\.[cm]?[jt]s\b/];

/**
 * Asserts that a reply is an RFC 9457 problem of this status (`application/problem+json` with
 * `type`, `title`, `status`, `detail`) that leaks nothing internal; answers the problem.
 */
// biome-ignore lint/suspicious/noExplicitAny: tests read the problem's members freely
export function expectProblem(reply: Reply, status: number): any {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json\s*(;|$)/);
  const problem = JSON.parse(reply.text);
  expect(problem).toBeTypeOf('object');
  expect(problem.type).toBeTypeOf('string');
  expect(problem.title).toBeTypeOf('string');
  expect(problem.status).toBe(status);
  expect(problem.detail).toBeTypeOf('string');
  expect(problem).not.toHaveProperty('stack');
  for (const leak of LEAKS) expect(reply.text, `the problem leaks ${leak}`).not.toMatch(leak);
  return problem;
}

/** Asserts a 422 whose `errors` member names exactly `fields`, each with at least one message. */
export function expectFieldErrors(reply: Reply, fields: readonly string[]): void {
  const problem = expectProblem(reply, 422);
  expect(problem.errors).toBeTypeOf('object');
  expect(Object.keys(problem.errors).sort()).toEqual([...fields].sort());
  for (const field of fields) {
    const messages = problem.errors[field];
    expect(Array.isArray(messages) && messages.length > 0, `errors.${field} lists messages`).toBe(true);
    for (const message of messages) expect(message).toBeTypeOf('string');
  }
}

/** The relations of an RFC 8288 `Link` header: `{ next: '/api/books?page=2', ... }`. */
export function parseLinks(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const match of (header ?? '').matchAll(/<([^>]*)>\s*;\s*rel="?([^";,]+)"?/g)) {
    for (const rel of (match[2] as string).split(/\s+/)) links[rel] = match[1] as string;
  }
  return links;
}

/** Compares strings by Unicode code point, computed independently of the library's own helper. */
export function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (char) => char.codePointAt(0) as number);
  const y = Array.from(b, (char) => char.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  }
  return x.length - y.length;
}

/**
 * Orders books as the contract says: by the given keys, then by `id` ascending as the final
 * tie-breaker (unless `id` is a key); strings by code point.
 */
export function sortBooks(books: readonly BookJson[], sort: string): BookJson[] {
  const keys = sort.split(',').map((key) => ({
    field: key.replace(/^-/, '') as keyof BookJson,
    sign: key.startsWith('-') ? -1 : 1,
  }));
  if (!keys.some((key) => key.field === 'id')) keys.push({ field: 'id', sign: 1 });
  return [...books].sort((a, b) => {
    for (const { field, sign } of keys) {
      const x = a[field];
      const y = b[field];
      const result = typeof x === 'number' ? x - (y as number) : byCodePoint(x, y as string);
      if (result !== 0) return sign * result;
    }
    return 0;
  });
}

/** Percent-encodes a query value (brackets in keys are left readable, as Rails-style clients send them). */
export const enc = encodeURIComponent;

/** The ids of a list of books, for compact assertions. */
export function ids(books: readonly BookJson[]): number[] {
  return books.map((book) => book.id);
}
