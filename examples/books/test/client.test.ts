import { ResourceError, resourceClient } from '@resourcery/client';
import { memoryStore } from '@resourcery/core';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import type { books } from '../src/book.js';

// The typed client against the running example app, over real HTTP on a free port.

let target: HttpSuiteTarget;
let client: ReturnType<typeof resourceClient<typeof books>>;

beforeAll(async () => {
  target = await serveHttp(createApp(memoryStore()));
  client = resourceClient<typeof books>({ baseUrl: target.baseUrl, name: 'book' });
});
afterAll(() => target.close());

/** The error a call rejects with. */
async function failure(call: Promise<unknown>): Promise<ResourceError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ResourceError);
  return error as ResourceError;
}

describe('the books client', () => {
  it('creates, shows, updates and destroys', async () => {
    const dune = await client.create({ name: 'Dune', author: 'Frank Herbert' });
    expect(dune).toEqual({ id: expect.any(Number), name: 'Dune', author: 'Frank Herbert' });
    expect(await client.show(dune.id)).toEqual(dune);
    expect(await client.update(dune.id, { name: 'Dune Messiah' })).toEqual({ ...dune, name: 'Dune Messiah' });
    expect(await client.update(dune.id, {})).toEqual({ ...dune, name: 'Dune Messiah' });
    await client.destroy(dune.id);
    const gone = await failure(client.show(dune.id));
    expect(gone).toMatchObject({ status: 404, code: 'not_found', title: 'Not Found', errors: {} });
    expect((await failure(client.destroy(dune.id))).status).toBe(404);
  });

  it('lists with filters, sort and pages, reading total and links from the headers', async () => {
    for (let i = 1; i <= 7; i++) await client.create({ name: `Book ${i}`, author: ['A', 'B', 'C'][i % 3] as string });
    const all = (await client.index({ perPage: 100 })).records;
    const byA = all.filter((book) => book.author === 'A' || book.author === 'B');

    const second = await client.index({ filter: { author: ['A', 'B'] }, sort: ['-name'], page: 2, perPage: 2 });
    const expected = [...byA].sort((x, y) => (x.name < y.name ? 1 : -1));
    expect(second.records).toEqual(expected.slice(2, 4));
    expect(second.total).toBe(byA.length);
    expect([second.prev, second.next, second.last]).toEqual([1, 3, Math.ceil(byA.length / 2)]);
    expect(second.links.next).toBe(
      `${target.baseUrl}/books?filter[author][]=A&filter[author][]=B&sort=-name&per_page=2&page=3`,
    );

    const one = await client.index({ filter: { author: 'C', id: all.map((book) => book.id) } });
    expect(one.records.map((book) => book.author)).toEqual(one.records.map(() => 'C'));
    expect([one.prev, one.next]).toEqual([undefined, undefined]);
  });

  it('walks every page with each()', async () => {
    const seen = [];
    for await (const book of client.each({ sort: 'id', perPage: 2 })) seen.push(book);
    const all = (await client.index({ sort: 'id', perPage: 100 })).records;
    expect(seen).toEqual(all);
    expect(seen.length).toBeGreaterThan(2);
  });

  it('throws the 422 problem with its per-field messages', async () => {
    const error = await failure(client.create({ name: '', author: 'x' }));
    expect(error.status).toBe(422);
    expect(error.code).toBe('validation_failed');
    expect(Object.keys(error.errors)).toEqual(['name']);
    expect(error.errors.name?.[0]).toEqual(expect.any(String));
    expect(error.detail).toBe('The request body has an invalid field: name');
    expect(error.headers.get('content-type')).toBe('application/problem+json');
  });

  it('throws the 400 problem for a query the server refuses', async () => {
    // Not expressible with the types (`year` is no field of Book): the server's answer shows through.
    const error = await failure(client.index({ sort: ['-year'] } as never));
    expect(error).toMatchObject({ status: 400, code: 'invalid_query' });
    expect(error.detail).toContain('sort: "year"');
  });

  it('sends the configured headers, through the configured fetch', async () => {
    const seen: Headers[] = [];
    const traced = resourceClient<typeof books>({
      baseUrl: target.baseUrl,
      name: 'book',
      headers: () => ({ 'x-trace': 'abc' }),
      fetch: (input, init) => {
        seen.push(new Headers(init.headers));
        return fetch(input, init);
      },
    });
    const { total } = await traced.index({ perPage: 1 });
    expect(total).toBeGreaterThan(0);
    expect(seen[0]?.get('x-trace')).toBe('abc');
  });

  it('rejects with fetch’s own error when there is no server', async () => {
    const nowhere = resourceClient<typeof books>({ baseUrl: 'http://127.0.0.1:9/api', name: 'book' });
    await expect(nowhere.show(1)).rejects.toThrow(TypeError);
  });
});
