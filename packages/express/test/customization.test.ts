import 'reflect-metadata';
import { defineResource, type Hooks, HttpError, memoryStore, type Resource } from '@resourcery/core';
import { IsString } from 'class-validator';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { notes, quota } from '../../../docs/examples/notes-hooks.js';
import { apiHooks, books } from '../../../docs/examples/owned-books.js';
import { resourcery } from '../src/index.js';
import { call, serve } from './serve.js';

// The examples of docs/customization.md (the files of docs/examples/), exercised over real HTTP.

let close: () => Promise<void> = async () => {};
afterEach(() => close());

// biome-ignore lint/suspicious/noExplicitAny: any resource can be started
async function start(resource: Resource<any, any> = books, hooks: Hooks<unknown> | undefined = undefined) {
  const app = express();
  const store = memoryStore();
  app.use(
    '/api',
    resourcery({ resources: [resource], store, hooks: hooks ?? (resource === books ? apiHooks : undefined) }),
  );
  const server = await serve(app);
  close = server.close;
  return { api: server.api, store };
}

describe('customization examples', () => {
  it('authentication answers 401 problem+json without a valid token', async () => {
    const { api } = await start();
    for (const token of [undefined, 'mallory']) {
      const res = await call(`${api}/books`, 'GET', undefined, token);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.json()).toMatchObject({ status: 401, detail: 'A valid bearer token is required' });
    }
    // 401 comes before anything else: no 404 for a missing record, no 422 for a bad body.
    expect((await call(`${api}/books/99`)).status).toBe(401);
    expect((await call(`${api}/books`, 'POST', { nonsense: true })).status).toBe(401);
  });

  it('computes ownerId on create, hides it, and refuses it from clients', async () => {
    const { api, store } = await start();
    const res = await call(`${api}/books`, 'POST', { name: 'Dune', author: 'Herbert' }, 'alice');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ book: { id: 1, name: 'Dune', author: 'Herbert', owner: 'Alice' } });
    const stored = await store.collection({ name: 'books', attributes: [], indexed: [] }).find(1, []);
    expect(stored).toMatchObject({ ownerId: 1, deleted: null });

    const forged = await call(`${api}/books`, 'POST', { name: 'X', author: 'Y', ownerId: 2 }, 'alice');
    expect(forged.status).toBe(422);
    expect((await forged.json()).errors).toEqual({ ownerId: ['is read-only'] });
  });

  it("scopes every action to the current user: another user's records are 404 and absent from index", async () => {
    const { api } = await start();
    await call(`${api}/books`, 'POST', { name: 'Mine', author: 'A' }, 'alice');
    await call(`${api}/books`, 'POST', { name: 'Theirs', author: 'B' }, 'bob');

    const aliceIndex = await call(`${api}/books`, 'GET', undefined, 'alice');
    expect(await aliceIndex.json()).toEqual({ books: [{ id: 1, name: 'Mine', author: 'A', owner: 'Alice' }] });
    expect(aliceIndex.headers.get('x-total-count')).toBe('1');
    expect((await call(`${api}/books/2`, 'GET', undefined, 'alice')).status).toBe(404);
    expect((await call(`${api}/books/2`, 'DELETE', undefined, 'alice')).status).toBe(404);
    expect((await call(`${api}/books/2`, 'GET', undefined, 'bob')).status).toBe(200);
  });

  it('replaces destroy with a soft delete: the record is gone for clients but kept in the store', async () => {
    const { api, store } = await start();
    await call(`${api}/books`, 'POST', { name: 'Dune', author: 'Herbert' }, 'alice');
    expect((await call(`${api}/books/1`, 'DELETE', undefined, 'alice')).status).toBe(204);
    expect((await call(`${api}/books/1`, 'GET', undefined, 'alice')).status).toBe(404);
    expect((await call(`${api}/books/1`, 'DELETE', undefined, 'alice')).status).toBe(404);
    expect(await (await call(`${api}/books`, 'GET', undefined, 'alice')).json()).toEqual({ books: [] });
    const kept = await store.collection({ name: 'books', attributes: [], indexed: [] }).find(1, []);
    expect(kept).toMatchObject({ name: 'Dune', deleted: true });
  });

  it('answers 405 with Allow for a disabled action', async () => {
    const { api } = await start();
    await call(`${api}/books`, 'POST', { name: 'Dune', author: 'Herbert' }, 'alice');
    const res = await call(`${api}/books/1`, 'PATCH', { name: 'Emma' }, 'alice');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, DELETE, OPTIONS');
  });
});

describe('hooks', () => {
  class Note {
    @IsString() text!: string;
  }

  it('a before hook can answer by itself without touching the store', async () => {
    const notes = defineResource({
      name: 'note',
      model: Note,
      hooks: { before: { show: (ctx) => ctx.respond({ note: { id: ctx.id, text: 'cached' } }) } },
      steps: {
        find: () => {
          throw new Error('the store must not be reached');
        },
      },
    });
    const { api } = await start(notes);
    const res = await call(`${api}/notes/5`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ note: { id: 5, text: 'cached' } });
  });

  it('after hooks change the result and headers; around hooks wrap the action in order', async () => {
    const order: string[] = [];
    const notes = defineResource({
      name: 'note',
      model: Note,
      hooks: {
        around: {
          all: async (_ctx, next) => {
            order.push('around:all>');
            const done = await next();
            order.push('<around:all');
            return done;
          },
          create: async (_ctx, next) => {
            order.push('around:create>');
            const done = await next();
            order.push('<around:create');
            return done;
          },
        },
        before: { all: () => void order.push('before:all'), create: () => void order.push('before:create') },
        after: {
          create: (ctx) => {
            order.push('after:create');
            ctx.headers['X-Audit'] = `created ${ctx.record?.id}`;
            ctx.result = { ...(ctx.result as object), meta: { by: 'hook' } };
          },
        },
      },
    });
    const { api } = await start(notes);
    const res = await call(`${api}/notes`, 'POST', { text: 'hi' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-audit')).toBe('created 1');
    expect(await res.json()).toEqual({ note: { id: 1, text: 'hi' }, meta: { by: 'hook' } });
    expect(order).toEqual([
      'around:all>',
      'around:create>',
      'before:all',
      'before:create',
      'after:create',
      '<around:create',
      '<around:all',
    ]);
  });

  it('an around hook runs the action in a transaction: a failure after the write undoes it', async () => {
    const notes = defineResource({
      name: 'note',
      model: Note,
      hooks: {
        around: { create: (ctx, next) => ctx.transaction(next) },
        after: {
          create: (ctx) => {
            if ((ctx.input as Note).text === 'boom') throw new Error('audit log unavailable');
          },
        },
      },
    });
    const logged: unknown[] = [];
    const app = express();
    app.use('/api', resourcery({ resources: [notes], store: memoryStore(), logError: (error) => logged.push(error) }));
    const server = await serve(app);
    close = server.close;
    const failed = await call(`${server.api}/notes`, 'POST', { text: 'boom' });
    expect(failed.status).toBe(500);
    const body = await failed.json();
    expect(body.detail).not.toContain('audit log');
    expect(logged).toHaveLength(1);
    const list = await call(`${server.api}/notes`);
    expect(await list.json()).toEqual({ notes: [] });
    expect(list.headers.get('x-total-count')).toBe('0');
  });

  it('replaces a whole action by answering from a before hook', async () => {
    const notes = defineResource({
      name: 'note',
      model: Note,
      hooks: { before: { index: (ctx) => ctx.respond({ notes: [], note: 'index is replaced' }) } },
    });
    const { api } = await start(notes);
    expect(await (await call(`${api}/notes?anything=goes`)).json()).toEqual({ notes: [], note: 'index is replaced' });
  });

  it('keeps headers set by earlier middleware, and a header named in any case is sent once', async () => {
    const notes = defineResource({
      name: 'note',
      model: Note,
      hooks: {
        after: {
          show: (ctx) => {
            ctx.headers['content-type'] = 'application/vnd.notes+json';
            ctx.headers['cache-control'] = 'max-age=60';
          },
        },
      },
    });
    const app = express();
    app.use((_req, res, next) => {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cache-Control', 'no-store');
      next();
    });
    app.use('/api', resourcery({ resources: [notes], store: memoryStore() }));
    const server = await serve(app);
    close = server.close;
    await call(`${server.api}/notes`, 'POST', { text: 'hi' });
    const res = await call(`${server.api}/notes/1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    // fetch joins repeated headers with ", ": one value each means one header each.
    expect(res.headers.get('cache-control')).toBe('max-age=60');
    expect(res.headers.get('content-type')).toBe('application/vnd.notes+json');
    expect(res.headers.get('content-length')).toBe(String((await res.text()).length));
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});

describe('the notes example (docs/examples/notes-hooks.ts)', () => {
  it('audits creates, counts pages, and turns the quota error into a 429 problem', async () => {
    quota.left = 1;
    const { api } = await start(notes);
    const created = await call(`${api}/notes`, 'POST', { text: 'first' });
    expect(created.status).toBe(200);
    expect(created.headers.get('x-audit')).toBe('created 1');
    const refused = await call(`${api}/notes`, 'POST', { text: 'second' });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'too_many_requests', detail: 'Note quota used up' });
    const listed = await call(`${api}/notes`);
    expect(listed.headers.get('x-page-size')).toBe('1');
  });
});

describe('API-wide hooks and error hooks', () => {
  class Tag {
    @IsString() label!: string;
  }

  it('API hooks wrap the resource hooks: before first, after last, around outermost', async () => {
    const order: string[] = [];
    const push = (entry: string) => () => void order.push(entry);
    const tags = defineResource({
      name: 'tag',
      model: Tag,
      hooks: {
        before: { create: push('resource:before') },
        after: { create: push('resource:after') },
        around: {
          create: async (_ctx, next) => {
            order.push('resource:around>');
            return next();
          },
        },
      },
    });
    const { api } = await start(tags, {
      before: { all: push('api:before') },
      after: { all: push('api:after') },
      around: {
        all: async (_ctx, next) => {
          order.push('api:around>');
          return next();
        },
      },
    });
    expect((await call(`${api}/tags`, 'POST', { label: 'x' })).status).toBe(200);
    expect(order).toEqual([
      'api:around>',
      'resource:around>',
      'api:before',
      'resource:before',
      'resource:after',
      'api:after',
    ]);
  });

  it('error hooks see what was thrown: the resource first, then the API; one may answer or replace it', async () => {
    const seen: string[] = [];
    const tags = defineResource({
      name: 'tag',
      model: Tag,
      hooks: {
        before: {
          show: (ctx) => {
            throw new Error(`tag ${ctx.id} is archived`);
          },
        },
        error: (error) => {
          seen.push(`resource: ${(error as Error).message}`);
          if ((error as Error).message === 'tag 2 is archived') {
            throw new HttpError(410, 'gone', { detail: 'Archived' });
          }
        },
      },
    });
    const { api } = await start(tags, {
      error: (error, ctx) => {
        seen.push(`api: ${(error as Error).message}`);
        if (ctx.action === 'show' && ctx.id === 1) ctx.respond({ tag: { id: 1, label: 'from the archive' } });
      },
    });
    const answered = await call(`${api}/tags/1`);
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ tag: { id: 1, label: 'from the archive' } });
    const replaced = await call(`${api}/tags/2`);
    expect(replaced.status).toBe(410);
    expect(await replaced.json()).toMatchObject({ code: 'gone', detail: 'Archived' });
    const passed = await call(`${api}/tags/3`);
    expect(passed.status).toBe(500);
    expect(seen).toEqual([
      'resource: tag 1 is archived',
      'api: tag 1 is archived',
      'resource: tag 2 is archived',
      'api: Archived',
      'resource: tag 3 is archived',
      'api: tag 3 is archived',
    ]);
  });
});
