import 'reflect-metadata';
import {
  type ActionContext,
  defineResource,
  type Hook,
  memoryStore,
  type Resource,
  UnauthorizedError,
} from '@resourcery/core';
import { IsBoolean, IsInt, IsOptional, IsString, Length } from 'class-validator';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { resourcery } from '../src/index.js';
import { call, serve } from './serve.js';

// The examples of docs/customization.md, each exercised over real HTTP.

class Book {
  @IsString() @Length(1, 500) name!: string;
  @IsString() @Length(1, 500) author!: string;
  @IsInt() ownerId!: number;
  @IsOptional() @IsBoolean() deleted?: boolean | null;
}

interface State {
  user?: { id: number };
}

const USERS: Record<string, { id: number }> = { alice: { id: 1 }, bob: { id: 2 } };

/** Authentication: every action needs a known bearer token, else 401. */
const authenticate: Hook<Book, State> = (ctx) => {
  const token = ctx.request.headers.authorization?.replace(/^Bearer /, '');
  const user = token ? USERS[token] : undefined;
  if (!user) throw new UnauthorizedError('A valid bearer token is required', { 'WWW-Authenticate': 'Bearer' });
  ctx.state.user = user;
};

const currentUser = (ctx: ActionContext<Book, State>) => ctx.state.user as { id: number };

const books = defineResource<Book, State>({
  name: 'book',
  model: Book,
  fields: {
    readOnly: ['ownerId', 'deleted'], // computed on the server: a client sending them gets a 422
    show: ['name', 'author'], // ownerId and deleted are hidden from responses
  },
  hooks: { before: { all: authenticate } },
  steps: {
    // Per-user scoping: other users' records do not exist for you, and soft-deleted ones for nobody.
    scope: (ctx) => ({ ownerId: currentUser(ctx).id, deleted: [false, null] }),
    // A field computed on create: the owner comes from the state bag.
    prepare: (ctx) => (ctx.action === 'create' ? { ...ctx.input, ownerId: currentUser(ctx).id } : (ctx.input ?? {})),
    // Destroy replaced by a soft delete.
    remove: async (ctx) => (await ctx.store.update(ctx.id as number, { deleted: true }, ctx.scope)) !== undefined,
  },
  actions: { update: false }, // a disabled action answers 405
});

let close: () => Promise<void> = async () => {};
afterEach(() => close());

// biome-ignore lint/suspicious/noExplicitAny: any resource can be started
async function start(resource: Resource<any, any> = books) {
  const app = express();
  const store = memoryStore();
  app.use('/api', resourcery({ resources: [resource], store }));
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
    expect(await res.json()).toEqual({ book: { id: 1, name: 'Dune', author: 'Herbert' } });
    const stored = await store.collection({ name: 'books', attributes: [], indexed: [] }).findOne(1, []);
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
    expect(await aliceIndex.json()).toEqual({ books: [{ id: 1, name: 'Mine', author: 'A' }] });
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
    const kept = await store.collection({ name: 'books', attributes: [], indexed: [] }).findOne(1, []);
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
        fetch: () => {
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
            await next();
            order.push('<around:all');
          },
          create: async (_ctx, next) => {
            order.push('around:create>');
            await next();
            order.push('<around:create');
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

  it('replaces a whole action', async () => {
    const notes = defineResource({
      name: 'note',
      model: Note,
      actions: {
        index: async (ctx) => {
          ctx.result = { notes: [], note: 'index is replaced' };
        },
      },
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
