import type { Collection, StoredRecord } from '@resourcery/core/store';
import { expect } from 'vitest';
import { ids, library, list, seed, storeGroup } from './fixtures.js';

class Abort extends Error {}

/** Runs work that creates, updates and destroys, then rejects with the error it answers. */
async function failingWork(store: Collection): Promise<unknown> {
  const failure = new Abort('work failed');
  const outcome = await store
    .transaction(async (tx) => {
      await tx.create({ name: 'New', author: 'Nobody' });
      await tx.update(1, { name: 'Changed', year: null }, []);
      await tx.destroy(2, []);
      throw failure;
    })
    .catch((error: unknown) => error);
  expect(outcome).toBe(failure);
  return outcome;
}

/** transaction: all or nothing, including nested calls. */
export const transactionCases = storeGroup('transaction', {
  'commits creates, updates and destroys when work resolves': async (store) => {
    await seed(store, library.slice(0, 3));
    const answer = await store.transaction(async (tx) => {
      const created = await tx.create({ name: 'New', author: 'Nobody' });
      await tx.update(1, { name: 'Changed' }, []);
      await tx.destroy(2, []);
      return created.id;
    });
    expect(answer).toBe(4);
    expect(ids(await list(store))).toEqual([1, 3, 4]);
    expect((await store.find(1, []))?.name).toBe('Changed');
  },
  'undoes creates, updates and destroys when work rejects': async (store) => {
    const before = await seed(store, library.slice(0, 3));
    await failingWork(store);
    expect(await list(store)).toStrictEqual(before);
  },
  'lets work read its own writes': async (store) => {
    await seed(store, library.slice(0, 2));
    await store.transaction(async (tx) => {
      const created = await tx.create({ name: 'New', author: 'Nobody' });
      await tx.update(1, { author: 'Someone' }, []);
      expect(await tx.find(created.id, [])).toStrictEqual(created);
      expect((await tx.find(1, []))?.author).toBe('Someone');
      const found = await tx.list({
        where: [],
        order: [{ field: 'id', direction: 'asc' }],
        limit: 10,
        offset: 0,
        count: true,
      });
      expect(found.total).toBe(3);
    });
  },
  'a nested transaction that rejects undoes only its own writes': async (store) => {
    await seed(store, library.slice(0, 3));
    let inner: StoredRecord | undefined;
    await store.transaction(async (tx) => {
      await tx.update(3, { name: 'Outer' }, []);
      await failingWork(tx);
      inner = await tx.find(1, []);
    });
    expect(inner?.name).toBe(library[0]?.name);
    expect(ids(await list(store))).toEqual([1, 2, 3]);
    expect((await store.find(3, []))?.name).toBe('Outer');
  },
  'a nested transaction is undone with the outer one': async (store) => {
    await seed(store, library.slice(0, 1));
    const failure = new Abort('outer failed');
    const outcome = await store
      .transaction(async (tx) => {
        await tx.transaction(async (nested) => nested.create({ name: 'Inner', author: 'Nobody' }));
        throw failure;
      })
      .catch((error: unknown) => error);
    expect(outcome).toBe(failure);
    expect(ids(await list(store))).toEqual([1]);
  },
});
