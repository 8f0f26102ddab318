import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiledResource } from '@resourcery/core/adapter';
import type { StoredRecord } from '@resourcery/core/store';
import { sqlStore } from '@resourcery/sql';
import { bookResource, storeConformanceSuite } from '@resourcery/testing';
import { afterAll, describe, expect, it } from 'vitest';

const folder = mkdtempSync(join(tmpdir(), 'resourcery-sqlite-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

storeConformanceSuite('SQLite file', () => sqlStore(`sqlite:${join(folder, 'suite.sqlite')}`));
storeConformanceSuite('SQLite in memory', () => sqlStore('sqlite::memory:'));

describe('SQLite: statements outside an open transaction', () => {
  // The store runs a statement on better-sqlite3 directly when no transaction is open on its one
  // connection; while one is, it must wait for it instead of joining it.
  it('neither see its writes nor are undone with it', async () => {
    const store = sqlStore(`sqlite:${join(folder, 'outside.sqlite')}`);
    const { schema } = compiledResource(bookResource());
    await store.init([schema]);
    const books = store.collection(schema);
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
