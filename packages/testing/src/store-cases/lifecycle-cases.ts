import { type ActionContext, type Api, createApi, defineResource } from '@resourcery/core';
import type { Collection, Store, StoreTransaction } from '@resourcery/core/store';
import { expect } from 'vitest';
import { Book } from '../book-resource.js';
import { type CallReply, callApi } from '../call-api.js';
import { type CaseHome, storeGroup } from './fixtures.js';

/**
 * A store whose collections run `between` (once, when set) right after a `find` has read its
 * record: a deterministic stand-in for another writer acting between a read and a write.
 */
function interleaving(store: Store) {
  // `between`: after the next read; `beforeWrite`: just before the next update.
  const hook: {
    between?: (inner: Collection) => Promise<unknown>;
    beforeWrite?: (inner: Collection) => Promise<unknown>;
  } = {};
  const wrap = (inner: Collection): Collection => ({
    schema: inner.schema,
    list: (query) => inner.list(query),
    find: async (id, where) => {
      const found = await inner.find(id, where);
      const between = hook.between;
      hook.between = undefined;
      await between?.(inner);
      return found;
    },
    create: (values) => inner.create(values),
    update: async (id, changes, where) => {
      const before = hook.beforeWrite;
      hook.beforeWrite = undefined;
      await before?.(inner);
      return inner.update(id, changes, where);
    },
    destroy: (id, where) => inner.destroy(id, where),
    transaction: (work) => inner.transaction((tx) => work(wrap(tx))),
  });
  const wrapTransaction = (tx: StoreTransaction): StoreTransaction => ({
    collection: (schema) => wrap(tx.collection(schema)),
    transaction: (work) => tx.transaction((nested) => work(wrapTransaction(nested))),
  });
  const wrapped: Store = {
    collection: (schema) => wrap(store.collection(schema)),
    transaction: (work) => store.transaction((tx) => work(wrapTransaction(tx))),
    init: (schemas) => store.init?.(schemas) ?? Promise.resolve(),
    // The API keys its entity tags and cursors with the secret the store keeps.
    secret: (name) => (store.secret as NonNullable<Store['secret']>).call(store, name),
  };
  return { wrapped, hook };
}

/** An API serving one book-shaped resource whose table is the case's own. */
function bookApi(home: CaseHome, store: Store, hooks?: Parameters<typeof defineResource<Book>>[0]['hooks']): Api {
  const resource = defineResource({ name: `${home.schema.name}b`, model: Book, hooks });
  return createApi({ resources: [resource], store, openapi: false, logError: () => {} });
}

/** The one record of a show, create or update answer (`{ "<name>": {...} }`). */
function bookOf(reply: CallReply): Record<string, unknown> {
  return Object.values(reply.body as Record<string, Record<string, unknown>>)[0] ?? {};
}

/** The API lifecycle on this store: compare-and-swap writes and transactions through hooks. */
export const lifecycleCases = storeGroup('lifecycle', {
  'an If-Match write loses to a change made between its read and its write (412, the change kept)': async (
    _collection,
    home,
  ) => {
    const { wrapped, hook } = interleaving(home.store);
    const api = bookApi(home, wrapped);
    const path = `/${home.schema.name}bs`;
    const created = await callApi(api, { method: 'POST', path, body: { name: 'Dune', author: 'Herbert' } });
    const id = bookOf(created).id as number;
    const etag = created.headers.ETag as string;
    for (const method of ['PATCH', 'DELETE']) {
      hook.between = (inner) => inner.update(id, { author: `Other writer ${method}` }, []);
      const write = await callApi(api, {
        method,
        path: `${path}/${id}`,
        headers: { 'If-Match': etag },
        body: method === 'PATCH' ? { name: 'Mine' } : undefined,
      });
      expect(write.status).toBe(412);
      const shown = await callApi(api, { method: 'GET', path: `${path}/${id}` });
      expect(bookOf(shown)).toEqual({ id, name: 'Dune', author: `Other writer ${method}` });
    }
    // Without If-Match, writes are not conditional (and read nothing first): both changes stay.
    hook.beforeWrite = (inner) => inner.update(id, { author: 'Third writer' }, []);
    const plain = await callApi(api, { method: 'PATCH', path: `${path}/${id}`, body: { name: 'Mine' } });
    expect(plain.status).toBe(200);
    expect(bookOf(await callApi(api, { method: 'GET', path: `${path}/${id}` }))).toEqual({
      id,
      name: 'Mine',
      author: 'Third writer',
    });
  },

  'ctx.transaction binds ctx.collection to the transaction and restores it, after a commit and after a failure': async (
    _collection,
    home,
  ) => {
    const seen: Record<string, boolean> = {};
    const api = bookApi(home, home.store, {
      before: {
        create: async (ctx: ActionContext<Book>) => {
          const outer = ctx.collection;
          await ctx.transaction(async () => {
            seen.boundInside = ctx.collection !== outer;
            await ctx.collection.create({ name: 'Committed', author: 'Inside' });
          });
          seen.restoredAfterCommit = ctx.collection === outer;
          await ctx
            .transaction(async () => {
              await ctx.collection.create({ name: 'Undone', author: 'Inside' });
              throw new Error('the work fails');
            })
            .catch(() => undefined);
          seen.restoredAfterFailure = ctx.collection === outer;
        },
      },
    });
    const path = `/${home.schema.name}bs`;
    const created = await callApi(api, { method: 'POST', path, body: { name: 'Request', author: 'Outside' } });
    expect(created.status).toBe(200);
    expect(seen).toEqual({ boundInside: true, restoredAfterCommit: true, restoredAfterFailure: true });
    const listed = await callApi(api, { method: 'GET', path: `${path}?sort=id` });
    const names = (Object.values(listed.body as object)[0] as { name: string }[]).map((book) => book.name);
    expect(names).toEqual(['Committed', 'Request']);
  },
});
