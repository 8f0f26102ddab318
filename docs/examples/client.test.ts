// The client examples of docs/client.md against the books resource, over real HTTP.
import { ResourceError, resourceClient } from '@resourcery/client';
import { memoryStore } from '@resourcery/core';
import { resourcery } from '@resourcery/express';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { books } from './book.js';
import { handWritten, printAll, rename, save, tour, withSession } from './client.js';

let target: HttpSuiteTarget;
beforeAll(async () => {
  target = await serveHttp(express().use('/api', resourcery({ resources: [books], store: memoryStore() })));
});
afterAll(() => target.close());

const client = () => resourceClient<typeof books>({ baseUrl: target.baseUrl, name: 'book' });

describe('the typed client (docs/client.md)', () => {
  it('creates, shows, updates, destroys and reads a page', async () => {
    const page = await tour(target.baseUrl);
    expect(page).toEqual({ records: [], total: 0, next: undefined, prev: 1, last: 1 });
  });

  it('sends the headers of a function per request', async () => {
    const language = vi.fn(async () => 'fr');
    await withSession({ language }, target.baseUrl);
    expect(language).toHaveBeenCalledOnce();
    expect(handWritten.url).toBe('/api/books');
  });

  it('walks every page', async () => {
    await client().create({ name: 'Children of Dune', author: 'Frank Herbert' });
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    await printAll(client());
    expect(log).toHaveBeenCalledWith('Children of Dune');
    log.mockRestore();
  });

  it("shows a 422's messages by field", async () => {
    const form = { showErrors: vi.fn() };
    await save(client(), form, { go: vi.fn() });
    expect(form.showErrors).toHaveBeenCalledWith({ name: ['must be between 1 and 500 characters long'] });
  });

  it('writes the version it read, and says so when someone changed it', async () => {
    const book = await client().create({ name: 'Dune', author: 'Frank Herbert' });
    expect(await rename(client(), book.id, 'Dune Messiah')).toMatchObject({ name: 'Dune Messiah' });
    // Changed between the read and the write: 412.
    const racing = resourceClient<typeof books>({
      baseUrl: target.baseUrl,
      name: 'book',
      fetch: async (url, init) => {
        if (init.method === 'PATCH') await client().update(book.id, { author: 'F. Herbert' });
        return fetch(url, init);
      },
    });
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const error = await rename(racing, book.id, 'Too late').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResourceError);
    expect((error as ResourceError).status).toBe(412);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^book \d+ changed since version "/));
    log.mockRestore();
  });
});
