// Transactions the database aborts to settle a conflict (a serialization failure, a deadlock) run
// again from the start, on a new transaction, bounded (docs/stores.md, "Retries"); a transaction
// that did something outside the database is never run again; a write outside any transaction
// runs again alone. On real PostgreSQL and MariaDB, with the conflicts provoked for real.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resourceSchemas } from '@resourcery/core/adapter';
import {
  type CollectionSchema,
  type Id,
  type StoreRetry,
  type StoreTransaction,
  StoreUnavailable,
} from '@resourcery/core/store';
import { type SqlStoreOptions, sqlStore } from '@resourcery/sql';
import { bookResource } from '@resourcery/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { barrier, blockedOn, competitor, quote } from './helpers/conflicts.js';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';

const [books] = resourceSchemas([bookResource()]) as [CollectionSchema];
const id = { name: 'id', type: 'integer', nullable: false } as const;
const parents: CollectionSchema = {
  name: 'parents',
  attributes: [id, { name: 'name', type: 'string', nullable: false, maxLength: 50 }],
  indexed: [],
};
const children: CollectionSchema = {
  name: 'children',
  attributes: [id, { name: 'parentId', type: 'integer', nullable: true }],
  indexed: ['parentId'],
  references: [{ field: 'parentId', collection: 'parents', onDelete: 'restrict' }],
};

/** How the database names the conflicts each test provokes. */
const DEADLOCK = { postgres: '40P01', mariadb: '40001' } as const;

for (const name of ['postgres', 'mariadb'] as const) {
  describe(`${SERVERS[name].label}: retries of transactions that lose a conflict`, () => {
    if (!serverAvailable(name)) return;

    async function open(options: SqlStoreOptions = {}) {
      const retries: StoreRetry[] = [];
      const prefix = `rt${Math.random().toString(36).slice(2, 8)}_`;
      const retrying =
        options.retries === false ? false : { ...options.retries, onRetry: (r: StoreRetry) => retries.push(r) };
      const store = droppingTables(
        sqlStore(SERVERS[name].url, { ...options, retries: retrying, tablePrefix: prefix }),
        prefix,
      );
      await store.init([books, parents, children]);
      const [one, two] = await Promise.all([
        store.collection(books).create({ name: 'one', author: 'a' }),
        store.collection(books).create({ name: 'two', author: 'a' }),
      ]);
      return { store, retries, prefix, one: one.id, two: two.id };
    }

    it('two serializable transactions on the same record: the one that loses runs again, and both changes are kept', async () => {
      const { store, retries, one } = await open();
      const meet = barrier(2);
      let runs = 0;
      const append = (mark: string) => {
        let attempt = 0;
        return store.transaction(
          async (tx) => {
            runs += 1;
            attempt += 1;
            const own = tx.collection(books);
            const read = await own.find(one, []);
            if (attempt === 1) await meet(); // both have read before either writes
            return (await own.update(one, { name: `${read?.name}${mark}` }, []))?.name;
          },
          { isolation: 'serializable' },
        );
      };
      try {
        const written = await Promise.all([append('+a'), append('+b')]);
        const stored = await store.collection(books).find(one, []);
        expect(['one+a+b', 'one+b+a']).toContain(stored?.name);
        expect(written).toContain(stored?.name);
        expect(runs).toBe(3);
        expect(retries).toEqual([{ scope: 'transaction', attempt: 2, delayMs: expect.any(Number), code: '40001' }]);
      } finally {
        await store.close();
      }
    });

    it('a deadlock between two transactions taking two rows in opposite orders: the aborted one runs again', async () => {
      const { store, retries, one, two } = await open();
      const meet = barrier(2);
      let runs = 0;
      const take = (first: Id, second: Id, changes: Record<string, string>) => {
        let attempt = 0;
        return store.transaction(async (tx) => {
          runs += 1;
          attempt += 1;
          await tx.collection(books).update(first, changes, []);
          if (attempt === 1) await meet();
          await tx.collection(books).update(second, changes, []);
        });
      };
      try {
        await Promise.all([take(one, two, { name: 'mine' }), take(two, one, { author: 'theirs' })]);
        for (const record of [one, two]) {
          expect(await store.collection(books).find(record, [])).toMatchObject({ name: 'mine', author: 'theirs' });
        }
        expect(runs).toBe(3);
        expect(retries).toEqual([
          { scope: 'transaction', attempt: 2, delayMs: expect.any(Number), code: DEADLOCK[name] },
        ]);
      } finally {
        await store.close();
      }
    }, 20_000);

    it('a transaction that did something outside the database (tx.sideEffect(), or retry: false) is not run again: 503', async () => {
      const { store, retries, one, two } = await open();
      const meet = barrier(2);
      let runs = 0;
      const take = (first: Id, second: Id, retry: boolean) =>
        store.transaction(
          async (tx) => {
            runs += 1;
            tx.sideEffect?.(); // what a hook's ctx.sideEffect() says
            await tx.collection(books).update(first, { author: 'b' }, []);
            await meet();
            await tx.collection(books).update(second, { author: 'b' }, []);
          },
          { retry },
        );
      try {
        const outcomes = await Promise.allSettled([take(one, two, true), take(two, one, false)]);
        const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
        expect(failed).toHaveLength(1);
        expect((failed[0] as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailable);
        expect(runs).toBe(2);
        expect(retries).toEqual([]);
      } finally {
        await store.close();
      }
    }, 20_000);

    it('retries run out: with attempts 1 (or retries: false) the loser of a deadlock fails at once with StoreUnavailable (503)', async () => {
      for (const options of [{ retries: { attempts: 1 } }, { retries: false as const }]) {
        const { store, one, two } = await open(options);
        const meet = barrier(2);
        let runs = 0;
        const take = (first: Id, second: Id) =>
          store.transaction(async (tx) => {
            runs += 1;
            await tx.collection(books).update(first, { name: 'x' }, []);
            await meet();
            await tx.collection(books).update(second, { name: 'x' }, []);
          });
        try {
          const outcomes = await Promise.allSettled([take(one, two), take(two, one)]);
          expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
          expect(runs).toBe(2);
        } finally {
          await store.close();
        }
      }
    }, 20_000);

    it('a write outside any transaction that loses a deadlock runs again alone (its statement), and succeeds', async () => {
      // The store's UPDATE holds the child's row and waits for its new parent's (the foreign key's
      // check); the competitor holds the parent and asks for the child: a deadlock the store loses.
      const { store, retries, prefix } = await open();
      const [parent, ...others] = await Promise.all(
        ['p', 'q', 'r', 's'].map((n) => store.collection(parents).create({ name: n })),
      );
      const child = await store.collection(children).create({ parentId: null });
      const [other, watcher] = await Promise.all([competitor(name), competitor(name)]);
      const q = (identifier: string) => quote(name, `${prefix}${identifier}`);
      const listened: StoreRetry[] = [];
      const reporting = store.collection(children).reportingRetries?.((retry) => listened.push(retry));
      try {
        await other.run('BEGIN');
        // More rows changed than the store's statement changes: MariaDB aborts the lighter one.
        for (const { id } of others) await other.run(`UPDATE ${q('parents')} SET name = 'held' WHERE id = ${id}`);
        await other.run(`SELECT id FROM ${q('parents')} WHERE id = ${parent?.id} FOR UPDATE`);
        const written = reporting?.update(child.id, { parentId: parent?.id ?? null }, []);
        await blockedOn(name, watcher, `${prefix}children`);
        await other.run(`SELECT id FROM ${q('children')} WHERE id = ${child.id} FOR UPDATE`);
        await other.run('COMMIT');
        expect(await written).toMatchObject({ id: child.id, parentId: parent?.id });
        const expected = { scope: 'statement', collection: 'children', attempt: 2, code: DEADLOCK[name] };
        expect(retries).toEqual([{ ...expected, delayMs: expect.any(Number) }]);
        expect(listened).toEqual(retries);
      } finally {
        await Promise.all([other.close(), watcher.close()]);
        await store.close();
      }
    }, 20_000);
  });
}

describe('PostgreSQL: bounds and nesting', () => {
  if (!serverAvailable('postgres')) return;

  /** A store, a book, and a competitor that changes the book under a transaction's feet. */
  async function conflicting() {
    const retries: StoreRetry[] = [];
    const prefix = `rb${Math.random().toString(36).slice(2, 8)}_`;
    const options = { tablePrefix: prefix, retries: { onRetry: (r: StoreRetry) => retries.push(r) } };
    const store = droppingTables(sqlStore(SERVERS.postgres.url, options), prefix);
    await store.init([books]);
    const book = await store.collection(books).create({ name: 'b', author: 'a' });
    const other = await competitor('postgres');
    /** Reads the book, lets the competitor change it, then writes it: 40001 every time. */
    const lose = async (tx: StoreTransaction) => {
      const own = tx.collection(books);
      await own.find(book.id, []);
      await other.run(`UPDATE "${prefix}books" SET author = 'other' WHERE id = ${book.id}`);
      await own.update(book.id, { name: 'mine' }, []);
    };
    return { store, retries, book, lose, close: () => other.close().finally(() => store.close()) };
  }

  it('a transaction that conflicts on every attempt runs 3 times, then fails with StoreUnavailable (503)', async () => {
    const { store, retries, lose, close } = await conflicting();
    let runs = 0;
    try {
      const failing = store.transaction(
        async (tx) => {
          runs += 1;
          await lose(tx);
        },
        { isolation: 'repeatable read' },
      );
      await expect(failing).rejects.toBeInstanceOf(StoreUnavailable);
      expect(runs).toBe(3);
      expect(retries.map((retry) => [retry.attempt, retry.code])).toEqual([
        [2, '40001'],
        [3, '40001'],
      ]);
      for (const [index, retry] of retries.entries()) expect(retry.delayMs).toBeLessThanOrEqual(10 * 2 ** index);
    } finally {
      await close();
    }
  });

  it('a conflict inside a nested transaction (a savepoint) runs the outermost one again, not the savepoint alone', async () => {
    const { store, retries, book, lose, close } = await conflicting();
    const runs = { outer: 0, nested: 0 };
    try {
      const written = await store.transaction(
        async (tx) => {
          runs.outer += 1;
          await tx.transaction(async (nested) => {
            runs.nested += 1;
            if (runs.nested === 1) await lose(nested);
            else await nested.collection(books).update(book.id, { name: 'mine' }, []);
          });
          return tx.collection(books).find(book.id, []);
        },
        { isolation: 'serializable' },
      );
      expect(written).toMatchObject({ name: 'mine', author: 'other' });
      expect(runs).toEqual({ outer: 2, nested: 2 });
      expect(retries).toHaveLength(1);
    } finally {
      await close();
    }
  });
});

describe('SQLite: the isolation option', () => {
  const folder = mkdtempSync(join(tmpdir(), 'resourcery-retries-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('is accepted (SQLite transactions are serializable whatever is asked)', async () => {
    const store = sqlStore(`sqlite:${folder}/retries.sqlite`);
    try {
      await store.init([books]);
      const created = await store.transaction((tx) => tx.collection(books).create({ name: 'n', author: 'a' }), {
        isolation: 'serializable',
      });
      expect(await store.collection(books).find(created.id, [])).toMatchObject({ name: 'n' });
    } finally {
      await store.close();
    }
  });
});
