import type { Change, ChangeLog, Collection, CollectionSchema, Store } from '@resourcery/core/store';
import { expect } from 'vitest';
import type { CaseHome, StoreCase, StoreCaseGroup } from './fixtures.js';
import { suiteSchema } from './fixtures.js';

// The change log of live collections (`Store.changes`, optional: a store without it skips these
// cases): every committed write of a live collection, in commit order, with the record before
// and after as `find` answers it; nothing for a rolled-back write or a collection that is not live.

/** The log of the case's store (the group is skipped on a store without one). */
export function logOf(store: Store): ChangeLog {
  const log = store.changes?.();
  if (!log) throw new Error('this store has no change log');
  return log;
}

/** Every change after `after` of the named collections (other cases' and tests' changes left out). */
export async function changesSince(log: ChangeLog, after: number, names: readonly string[]): Promise<Change[]> {
  const found: Change[] = [];
  let position = after;
  for (;;) {
    const page = await log.read(position, 100);
    if (page === 'gone') throw new Error(`the log answered 'gone' after ${position}`);
    if (page.length === 0) return found;
    for (const change of page) if (names.includes(change.collection)) found.push(change);
    position = page[page.length - 1]?.seq ?? position;
  }
}

/** The kind and id of each change, for comparing lists. */
export function kindsAndIds(changes: readonly Change[]): [string, unknown][] {
  return changes.map((change) => [change.kind, change.id]);
}

/** Resolves at the first call of the returned `wake`, or rejects after `ms`. */
function woken(ms: number): { wake: () => void; promise: Promise<void> } {
  let wake = () => {};
  const promise = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`watch did not wake within ${ms} ms`)), ms);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { wake, promise };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A live collection, and a second one that is not. */
function liveSchemas(prefix: string): CollectionSchema[] {
  return [{ ...suiteSchema(prefix), live: true }, suiteSchema(`${prefix}_quiet`)];
}

/** Runs a case with the log and its head before the case's writes. */
function logged(test: (books: Collection, home: CaseHome, log: ChangeLog, start: number) => Promise<void>): StoreCase {
  return async (books, home) => {
    const log = logOf(home.store);
    await test(books, home, log, await log.head());
  };
}

const DUNE = { name: 'Dune', author: 'Herbert', year: 1965, price: 9.99, available: true };

export const changeCases: StoreCaseGroup = {
  name: 'change log',
  schemas: liveSchemas,
  needsStore: 'changes',
  cases: {
    'create, update and destroy are logged with the records before and after, as find answers them': logged(
      async (books, { schema }, log, start) => {
        const created = await books.create(DUNE);
        const found = await books.find(created.id, []);
        await books.update(created.id, { year: 1966, available: null }, []);
        const updated = await books.find(created.id, []);
        expect(await books.destroy(created.id, [])).toBe(true);
        const changes = await changesSince(log, start, [schema.name]);
        expect(kindsAndIds(changes)).toEqual([
          ['created', created.id],
          ['updated', created.id],
          ['destroyed', created.id],
        ]);
        const [create, update, destroy] = changes as [Change, Change, Change];
        expect([create.before, create.after]).toStrictEqual([null, found]);
        expect([update.before, update.after]).toStrictEqual([found, updated]);
        expect([destroy.before, destroy.after]).toStrictEqual([updated, null]);
        expect(create.seq).toBeGreaterThan(start);
        expect(update.seq).toBeGreaterThan(create.seq);
        expect(destroy.seq).toBeGreaterThan(update.seq);
        expect(await log.head()).toBeGreaterThanOrEqual(destroy.seq);
      },
    ),

    'writes that change nothing log nothing': logged(async (books, { schema }, log, start) => {
      const created = await books.create(DUNE);
      expect(await books.update((created.id as number) + 100, { year: 1 }, [])).toBeUndefined();
      expect(await books.update(created.id, { year: 1 }, [{ field: 'author', values: ['Austen'] }])).toBeUndefined();
      expect(await books.destroy(created.id, [{ field: 'author', values: ['Austen'] }])).toBe(false);
      expect(await books.destroy((created.id as number) + 100, [])).toBe(false);
      expect(kindsAndIds(await changesSince(log, start, [schema.name]))).toEqual([['created', created.id]]);
    }),

    'the writes of one transaction are logged in their order': logged(async (books, { store, schema }, log, start) => {
      const [a, b] = await store.transaction(async (tx) => {
        const inside = tx.collection(schema);
        const a = await inside.create(DUNE);
        const b = await inside.create({ name: 'Emma', author: 'Austen' });
        await inside.update(a.id, { year: 2000 }, []);
        await inside.destroy(b.id, []);
        return [a, b];
      });
      const changes = await changesSince(log, start, [schema.name]);
      expect(kindsAndIds(changes)).toEqual([
        ['created', a.id],
        ['created', b.id],
        ['updated', a.id],
        ['destroyed', b.id],
      ]);
      expect(changes[2]?.after).toStrictEqual(await books.find(a.id, []));
    }),

    'a rolled-back transaction logs nothing, nor a nested one undone alone': logged(
      async (books, { store, schema }, log, start) => {
        const failure = new Error('undo');
        const outcome = await store
          .transaction(async (tx) => {
            await tx.collection(schema).create(DUNE);
            throw failure;
          })
          .catch((error: unknown) => error);
        expect(outcome).toBe(failure);
        const kept = await books.transaction(async (outer) => {
          const kept = await outer.create(DUNE);
          await outer
            .transaction(async (inner) => {
              await inner.update(kept.id, { year: 1 }, []);
              await inner.create({ name: 'Emma', author: 'Austen' });
              throw failure;
            })
            .catch(() => undefined);
          return kept;
        });
        expect(kindsAndIds(await changesSince(log, start, [schema.name]))).toEqual([['created', kept.id]]);
      },
    ),

    'createMany logs each record, in order': logged(async (books, { schema }, log, start) => {
      if (!books.createMany) return;
      const made = await books.createMany([DUNE, { name: 'Emma', author: 'Austen' }, { name: 'Ubik', author: 'Dick' }]);
      const changes = await changesSince(log, start, [schema.name]);
      expect(kindsAndIds(changes)).toEqual(made.map((record) => ['created', record.id]));
      expect(changes.map((change) => change.after)).toStrictEqual(
        await Promise.all(made.map((record) => books.find(record.id, []))),
      );
    }),

    'a collection that is not live logs nothing': logged(async (_, { schemas, collections }, log, start) => {
      const quiet = collections[1] as Collection;
      const record = await quiet.create(DUNE);
      await quiet.update(record.id, { year: 1 }, []);
      await quiet.destroy(record.id, []);
      expect(await changesSince(log, start, [(schemas[1] as CollectionSchema).name])).toEqual([]);
    }),

    'watch wakes after a commit, until stopped': logged(async (books, { schema }, log, start) => {
      const { wake, promise } = woken(5000);
      let calls = 0;
      const stop = log.watch(() => {
        calls++;
        wake();
      });
      try {
        await books.create(DUNE);
        await promise;
        expect(calls).toBeGreaterThan(0);
        expect(kindsAndIds(await changesSince(log, start, [schema.name]))).toHaveLength(1);
      } finally {
        stop();
      }
    }),

    "a position past the head answers 'gone', the head itself none": logged(async (books, _, log) => {
      await books.create(DUNE);
      const head = await log.head();
      expect(await log.read(head, 10)).toEqual([]);
      expect(await log.read(head + 1_000_000, 10)).toBe('gone');
      const epoch = await log.epoch();
      expect(epoch).toMatch(/.+/);
      expect(await log.epoch()).toBe(epoch);
      expect(log.retentionMs).toBeGreaterThanOrEqual(10 * 60_000);
    }),

    "a pruned position answers 'gone'": async (_, home) => {
      const store = await home.storeWith?.({ changeRetentionMs: 50 });
      if (!store || store === home.store) return; // the factory makes no other store
      try {
        const log = logOf(store);
        if (log.retentionMs !== 50) return; // the factory does not honour changeRetentionMs
        const [schema] = liveSchemas(`${home.schema.name}_pruned`) as [CollectionSchema];
        const books = store.collection(schema);
        await store.init?.([schema]);
        const start = await log.head();
        const first = await books.create(DUNE);
        let pruned: readonly Change[] | 'gone' = [];
        for (let round = 0; round < 100 && pruned !== 'gone'; round++) {
          await pause(60);
          await books.update(first.id, { year: round }, []); // a commit, after which the log may prune
          pruned = await log.read(start, 10);
        }
        expect(pruned).toBe('gone');
        expect(await log.read(await log.head(), 10)).toEqual([]);
      } finally {
        await store.close?.();
      }
    },
  },
};
