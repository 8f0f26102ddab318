import { etagOf, ResourceError, resourceClient } from '@resourcery/client';
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

  it('reads the ETag of every record it answers, and revalidates a copy with ifNoneMatch', async () => {
    const seen: { method: string; status: number; ifNoneMatch: string | null }[] = [];
    const traced = resourceClient<typeof books>({
      baseUrl: target.baseUrl,
      name: 'book',
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        const ifNoneMatch = new Headers(init.headers).get('if-none-match');
        seen.push({ method: String(init.method), status: response.status, ifNoneMatch });
        return response;
      },
    });
    const created = await traced.create({ name: 'Kindred', author: 'Octavia E. Butler' });
    expect(etagOf(created)).toMatch(/^"[^"]+"$/);
    const shown = await traced.show(created.id);
    expect(etagOf(shown)).toBe(etagOf(created));
    // Unchanged: a 304 without a body, and the copy given is the answer.
    expect(await traced.show(created.id, { ifNoneMatch: shown })).toBe(shown);
    expect(seen.at(-1)).toEqual({ method: 'GET', status: 304, ifNoneMatch: etagOf(shown) });
    // Changed since: the new version, with its new ETag.
    const renamed = await traced.update(created.id, { name: 'Kindred (2nd ed.)' });
    const fresh = await traced.show(created.id, { ifNoneMatch: shown });
    expect(fresh).toEqual(renamed);
    expect(fresh).not.toBe(shown);
    expect(etagOf(fresh)).toBe(etagOf(renamed));
    expect(etagOf(fresh)).not.toBe(etagOf(shown));
    // A copy whose version is unknown (from an index) sends no condition.
    const [listed] = (await traced.index({ filter: { id: created.id } })).records;
    expect(etagOf(listed as object)).toBeUndefined();
    expect(await traced.show(created.id, { ifNoneMatch: listed })).toEqual(renamed);
    expect(seen.at(-1)).toMatchObject({ status: 200, ifNoneMatch: null });
  });

  it('writes only the version it read with ifMatch: 412 once someone changed the record', async () => {
    const book = await client.create({ name: 'Parable of the Sower', author: 'Octavia E. Butler' });
    const updated = await client.update(book.id, { name: 'Parable of the Talents' }, { ifMatch: book });
    const stale = await failure(client.update(book.id, { name: 'Too late' }, { ifMatch: book }));
    expect(stale).toMatchObject({ status: 412, code: 'precondition_failed' });
    expect((await failure(client.destroy(book.id, { ifMatch: book }))).status).toBe(412);
    expect(await client.show(book.id)).toEqual(updated);
    // An ETag given as a string, `*` included, works too.
    await client.update(book.id, { author: 'O. E. Butler' }, { ifMatch: '*' });
    const current = await client.show(book.id);
    await client.destroy(book.id, { ifMatch: etagOf(current) });
    expect((await failure(client.show(book.id))).status).toBe(404);
  });

  it('refuses a conditional write whose version it does not know, before any request', async () => {
    const book = await client.create({ name: 'Wild Seed', author: 'Octavia E. Butler' });
    const [listed] = (await client.index({ filter: { id: book.id } })).records;
    await expect(client.update(book.id, { name: 'x' }, { ifMatch: listed })).rejects.toThrow(/ifMatch has no ETag/);
    await expect(client.destroy(book.id, { ifMatch: undefined })).rejects.toThrow(TypeError);
    expect(await client.show(book.id)).toEqual(book);
  });

  it('asks the server not to count with count: false', async () => {
    const counted = await client.index({ perPage: 1 });
    expect(counted.total).toEqual(expect.any(Number));
    const uncounted = await client.index({ perPage: 1, count: false });
    expect(uncounted.total).toBeUndefined();
    expect(uncounted.records).toEqual(counted.records);
  });

  it('rejects with fetch’s own error when there is no server', async () => {
    const nowhere = resourceClient<typeof books>({ baseUrl: 'http://127.0.0.1:9/api', name: 'book' });
    await expect(nowhere.show(1)).rejects.toThrow(TypeError);
  });
});
