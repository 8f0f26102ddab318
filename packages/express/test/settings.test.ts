import 'reflect-metadata';
import { defineResource, memoryStore, type ResourceOptions } from '@resourcery/core';
import type { ListQuery } from '@resourcery/core/store';
import { type Collection, type Store } from '@resourcery/core/store';
import { IsInt, IsOptional, IsString } from 'class-validator';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { resourcery } from '../src/index.js';
import { call, serve } from './serve.js';

// The settings cases of the original system (resting_pug), with our strict semantics:
// a disallowed filter or sort field is a 400 here, never silently ignored.

class Book {
  @IsString() name!: string;
  @IsString() author!: string;
  @IsOptional() @IsInt() year?: number | null;
}

let close: () => Promise<void> = async () => {};
afterEach(() => close());

async function start(
  options: Partial<ResourceOptions<Book, Record<string, unknown>>>,
  seed = 0,
  store: Store = memoryStore(),
) {
  const books = defineResource({ name: 'book', model: Book, ...options });
  const app = express();
  app.use('/api', resourcery({ resources: [books], store }));
  const server = await serve(app);
  close = server.close;
  for (let i = 1; i <= seed; i++) {
    const res = await call(`${server.api}/books`, 'POST', { name: `Book ${i % 3}`, author: `Author ${i}` });
    expect(res.status).toBe(200);
  }
  return server.api;
}

const ids = async (res: Response) => ((await res.json()).books as { id: number }[]).map((book) => book.id);

describe('per_page', () => {
  it('defaults to 25 and allows at most 100', async () => {
    const api = await start({}, 30);
    expect(await ids(await call(`${api}/books`))).toHaveLength(25);
    expect((await call(`${api}/books?per_page=100`)).status).toBe(200);
    const over = await call(`${api}/books?per_page=101`);
    expect(over.status).toBe(400);
    expect((await over.json()).detail).toBe('per_page must be at most 100 (got 101)');
  });

  it('default and maximum are set per resource', async () => {
    const api = await start({ perPage: { default: 2, max: 5 } }, 6);
    expect(await ids(await call(`${api}/books`))).toEqual([6, 5]);
    expect(await ids(await call(`${api}/books?per_page=5`))).toEqual([6, 5, 4, 3, 2]);
    expect((await call(`${api}/books?per_page=6`)).status).toBe(400);
  });

  it('refuses a declaration whose default exceeds its maximum', () => {
    expect(() => defineResource({ name: 'book', model: Book, perPage: { default: 10, max: 5 } })).toThrow(/perPage/);
  });
});

describe('default sort', () => {
  it('is -id (newest first) by default', async () => {
    const api = await start({}, 3);
    expect(await ids(await call(`${api}/books`))).toEqual([3, 2, 1]);
  });

  it('is set per resource, with id as the final tie-breaker', async () => {
    const api = await start({ defaultSort: 'name' }, 6);
    // names cycle Book 1, Book 2, Book 0: ties on name are ordered by id ascending
    expect(await ids(await call(`${api}/books`))).toEqual([3, 6, 1, 4, 2, 5]);
  });

  it('refuses a default sort on an unknown field at declaration time', () => {
    expect(() => defineResource({ name: 'book', model: Book, defaultSort: '-rating' })).toThrow(/rating/);
  });
});

describe('filter and sort allow-lists', () => {
  it('a field outside the filter list is a 400 naming it', async () => {
    const api = await start({ fields: { filter: ['author'] } }, 2);
    expect(await ids(await call(`${api}/books?filter[author]=Author%201`))).toEqual([1]);
    const res = await call(`${api}/books?filter[name]=Book%201`);
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toBe(
      'filter[name]: "name" is not an attribute that can be used here (allowed: author)',
    );
  });

  it('a field outside the sort list is a 400 naming it', async () => {
    const api = await start({ fields: { sort: ['name', 'id'] } }, 2);
    expect((await call(`${api}/books?sort=-name,id`)).status).toBe(200);
    const res = await call(`${api}/books?sort=author`);
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toContain('sort: "author"');
  });
});

describe('show and create allow-lists', () => {
  it('the show list hides other fields from every response', async () => {
    const api = await start({ fields: { show: ['name'] } });
    const created = await call(`${api}/books`, 'POST', { name: 'Dune', author: 'Herbert', year: 1965 });
    expect(await created.json()).toEqual({ book: { id: 1, name: 'Dune' } });
    expect(await (await call(`${api}/books/1`)).json()).toEqual({ book: { id: 1, name: 'Dune' } });
    expect(await (await call(`${api}/books`)).json()).toEqual({ books: [{ id: 1, name: 'Dune' }] });
  });

  it('the create list limits what create may set; update keeps its own list', async () => {
    const api = await start({ fields: { create: ['name', 'author'], update: ['year'] } });
    const refused = await call(`${api}/books`, 'POST', { name: 'Dune', author: 'Herbert', year: 1965 });
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors).toEqual({ year: ['cannot be set'] });
    expect((await call(`${api}/books`, 'POST', { name: 'Dune', author: 'Herbert' })).status).toBe(200);
    const renamed = await call(`${api}/books/1`, 'PATCH', { name: 'Emma' });
    expect(renamed.status).toBe(422);
    expect((await renamed.json()).errors).toEqual({ name: ['cannot be changed'] });
    const dated = await call(`${api}/books/1`, 'PATCH', { year: 1965 });
    expect(await dated.json()).toEqual({ book: { id: 1, name: 'Dune', author: 'Herbert', year: 1965 } });
  });

  it('refuses an allow-list naming an unknown field at declaration time', () => {
    expect(() => defineResource({ name: 'book', model: Book, fields: { filter: ['title' as 'name'] } })).toThrow(
      /fields.filter names "title"/,
    );
  });
});

/** A memory store whose collections keep every list query they are asked. */
function recordingStore(seen: ListQuery[]): Store {
  const store = memoryStore();
  const recording = (collection: Collection): Collection =>
    new Proxy(collection, {
      get: (target, key) =>
        key === 'list'
          ? (query: ListQuery) => {
              seen.push(query);
              return target.list(query);
            }
          : Reflect.get(target, key),
    });
  return new Proxy(store, {
    get: (target, key) =>
      key === 'collection' ? (schema: never) => recording(target.collection(schema)) : Reflect.get(target, key),
  });
}

const headers = (res: Response) => ({
  total: res.headers.get('x-total-count'),
  estimate: res.headers.get('x-total-count-estimate'),
  rels: [...(res.headers.get('link') ?? '').matchAll(/rel="(\w+)"/g)].map((match) => match[1]),
});

describe('count', () => {
  it("count=estimated asks the store for an estimate past the resource's estimateCountsAbove, exact below", async () => {
    const seen: ListQuery[] = [];
    const api = await start({ estimateCountsAbove: 500 }, 7, recordingStore(seen));
    seen.length = 0;
    const res = await call(`${api}/books?count=estimated&per_page=3`);
    // The memory store counts exactly: answered as count=true is.
    expect(headers(res)).toEqual({ total: '7', estimate: null, rels: ['first', 'next', 'last'] });
    expect(await ids(res)).toEqual([7, 6, 5]);
    expect(seen).toMatchObject([{ count: 'estimated', estimateAbove: 500, limit: 4 }]);
    await call(`${api}/books?count=true&per_page=3`);
    expect(seen[1]).toMatchObject({ count: true, limit: 3 });
    expect(seen[1]).not.toHaveProperty('estimateAbove');
  });

  it("a resource declared with count: 'estimated' estimates by default; count=true and count=false still say", async () => {
    const seen: ListQuery[] = [];
    const api = await start({ count: 'estimated' }, 3, recordingStore(seen));
    seen.length = 0;
    await call(`${api}/books`);
    await call(`${api}/books?count=true`);
    await call(`${api}/books?count=false`);
    expect(seen.map((query) => [query.count, query.estimateAbove])).toEqual([
      ['estimated', 10_000],
      [true, undefined],
      [false, undefined],
    ]);
  });

  it('an estimated total is sent as X-Total-Count-Estimate, with next from the record past the page and no last', async () => {
    const api = await start(
      { steps: { list: async (_ctx, next) => ({ ...(await next()), total: 123_456, estimated: true }) } },
      7,
    );
    const first = await call(`${api}/books?count=estimated&per_page=3`);
    expect(headers(first)).toEqual({ total: null, estimate: '123456', rels: ['first', 'next'] });
    const lastPage = await call(`${api}/books?count=estimated&per_page=3&page=3`);
    expect(headers(lastPage)).toEqual({ total: null, estimate: '123456', rels: ['first', 'prev'] });
    expect(await ids(lastPage)).toEqual([1]);
  });

  it('refuses a count other than true, false or estimated, in the declaration as in the request', async () => {
    const api = await start({}, 1);
    const res = await call(`${api}/books?count=estimate`);
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toBe('count must be true, false or estimated (got "estimate")');
    expect(() => defineResource({ name: 'book', model: Book, count: 'exact' as never })).toThrow(/count must be/);
    for (const estimateCountsAbove of [0, -1, 1.5, Number.NaN]) {
      expect(() => defineResource({ name: 'book', model: Book, estimateCountsAbove })).toThrow(
        /estimateCountsAbove must be a positive integer/,
      );
    }
  });
});
