import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiledResource } from '@resourcery/core/adapter';
import { type Collection, ConstraintViolation, type StoredRecord } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import { type BookResourceOptions, bookResource } from '@resourcery/testing';
import { storeConformanceSuite } from '@resourcery/testing/suites';
import { afterAll, describe, expect, it } from 'vitest';

const folder = mkdtempSync(join(tmpdir(), 'resourcery-sqlite-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let pruned = 0;
/** The suite's store on a file, or (asked with options) another one on a file of its own. */
storeConformanceSuite('SQLite file', (options) =>
  options
    ? sqlStore(`sqlite:${join(folder, `other-${++pruned}.sqlite`)}`, {
        changes: { retentionMs: options.changeRetentionMs },
      })
    : sqlStore(`sqlite:${join(folder, 'suite.sqlite')}`),
);
storeConformanceSuite('SQLite in memory', (options) =>
  sqlStore('sqlite::memory:', { changes: { retentionMs: options?.changeRetentionMs } }),
);

/** A SQLite store on the file at `path` with the book resource's table (and `options`), and its books. */
async function bookStore(path: string, options: BookResourceOptions = {}) {
  const store = sqlStore(`sqlite:${path}`);
  const { schema } = compiledResource(bookResource(options));
  await store.init([schema]);
  return { store, schema, books: store.collection(schema) };
}

/** The names of the books, in id order. */
async function namesOf(books: Collection): Promise<unknown[]> {
  const page = await books.list({
    where: [],
    order: [{ field: 'id', direction: 'asc' }],
    limit: 10,
    offset: 0,
    count: false,
  });
  return page.records.map((book) => book.name);
}

describe('SQLite: statements outside an open transaction', () => {
  // The store runs a statement on better-sqlite3 directly when no transaction is open on its one
  // connection; while one is, it must wait for it instead of joining it.
  it('neither see its writes nor are undone with it', async () => {
    const { store, schema, books } = await bookStore(join(folder, 'outside.sqlite'));
    try {
      const kept = await books.create({ name: 'Kept', author: 'A' });
      const outside: Promise<unknown>[] = [];
      const failure = new Error('undo');
      const outcome = await store
        .transaction(async (tx) => {
          const inside = await tx.collection(schema).create({ name: 'Undone', author: 'B' });
          outside.push(books.find(inside.id, []), books.create({ name: 'Outside', author: 'C' }));
          await tx.collection(schema).update(kept.id, { name: 'Changed' }, []);
          outside.push(books.find(kept.id, []));
          throw failure;
        })
        .catch((error: unknown) => error);
      expect(outcome).toBe(failure);
      const [undone, created, unchanged] = (await Promise.all(outside)) as (StoredRecord | undefined)[];
      expect(undone).toBeUndefined();
      expect(created?.name).toBe('Outside');
      expect(unchanged?.name).toBe('Kept');
      expect((await books.find(created?.id ?? 0, []))?.name).toBe('Outside');
    } finally {
      await store.close();
    }
  });
});

/**
 * How many transactions the write-ahead log of the database at `path` holds: its frames that end
 * a commit (a frame header's database size after the commit is non-zero only on those).
 */
function commitsInWal(path: string): number {
  const wal = readFileSync(`${path}-wal`);
  const pageSize = wal.readUInt32BE(8);
  let commits = 0;
  for (let at = 32; at + 24 <= wal.length; at += 24 + pageSize) if (wal.readUInt32BE(at + 4) !== 0) commits++;
  return commits;
}

describe('SQLite: the writes of one turn of the event loop', () => {
  // Each commit waits for an fsync (synchronous = FULL): the writes that arrive together are
  // committed together, each in a savepoint, and answered once that commit is done.
  it('are committed in one transaction, a failing write undone alone', async () => {
    const path = join(folder, 'together.sqlite');
    const { store, books } = await bookStore(path, { unique: ['name'] });
    try {
      const first = await books.create({ name: 'First', author: 'A' });
      const gone = await books.create({ name: 'Gone', author: 'E' });
      const before = commitsInWal(path);
      const outcomes = await Promise.allSettled([
        books.create({ name: 'Second', author: 'B' }),
        books.create({ name: 'First', author: 'C' }),
        books.update(first.id, { name: 'First, renamed' }, []),
        books.destroy(gone.id, []),
        books.create({ name: 'Third', author: 'D' }),
      ]);
      expect(commitsInWal(path) - before).toBe(1);
      expect(outcomes.map((outcome) => outcome.status)).toEqual([
        'fulfilled',
        'rejected',
        'fulfilled',
        'fulfilled',
        'fulfilled',
      ]);
      expect((outcomes[3] as PromiseFulfilledResult<boolean>).value).toBe(true);
      expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(ConstraintViolation);
      expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ kind: 'unique' });
      expect((outcomes[2] as PromiseFulfilledResult<StoredRecord>).value.name).toBe('First, renamed');
    } finally {
      await store.close();
    }
    // What was answered is on disk; the refused write left nothing.
    const reopened = await bookStore(path, { unique: ['name'] });
    try {
      expect(await namesOf(reopened.books)).toEqual(['First, renamed', 'Second', 'Third']);
    } finally {
      await reopened.store.close();
    }
  });

  it('wait for a transaction that began before their commit, and are not undone with it', async () => {
    const { store, schema, books } = await bookStore(join(folder, 'together-then-transaction.sqlite'));
    try {
      const failure = new Error('undo');
      // The create waits for the end of this turn; the transaction begins before that.
      const outside = books.create({ name: 'Outside', author: 'A' });
      const undone = store.transaction(async (tx) => {
        await tx.collection(schema).create({ name: 'Undone', author: 'B' });
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw failure;
      });
      expect(await undone.catch((error: unknown) => error)).toBe(failure);
      const created = await outside;
      expect(created.name).toBe('Outside');
      expect(await namesOf(books)).toEqual(['Outside']);
    } finally {
      await store.close();
    }
  });
});
