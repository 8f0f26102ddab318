// The SQL stores' change log beyond the shared store suite's cases: commit order under
// concurrency, wake-ups across processes (two stores on one PostgreSQL database) and after the
// LISTEN connection is lost, atomicity of writes outside transactions, and what a live write costs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Change, ChangeLog, CollectionSchema } from '@resourcery/core/store';
import { ConstraintViolation } from '@resourcery/core/store';
import { afterAll, describe, expect, it } from 'vitest';
import { countedStores } from './helpers/counting-store.js';
import { droppingTables, testDatabases } from './helpers/databases.js';

const folder = mkdtempSync(join(tmpdir(), 'resourcery-changes-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Issues, live or not, with a unique title. */
function issues(name: string, live = true): CollectionSchema {
  return {
    name,
    attributes: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'title', type: 'string', nullable: false, maxLength: 200 },
      { name: 'status', type: 'string', nullable: true, maxLength: 20 },
    ],
    indexed: ['title'],
    unique: [['title']],
    live,
  };
}

/** Every change after `after`. */
async function since(log: ChangeLog, after: number): Promise<Change[]> {
  const page = await log.read(after, 1000);
  if (page === 'gone') throw new Error('gone');
  return [...page];
}

/** A promise and the function that resolves it. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

for (const database of testDatabases(folder)) {
  describe(`${database.label}: change log`, () => {
    it('a write outside a transaction that fails (a unique violation) logs nothing', async () => {
      const { store } = database.open();
      try {
        const schema = issues('atomic');
        const collection = store.collection(schema);
        await store.init([schema]);
        const log = store.changes();
        const start = await log.head();
        const first = await collection.create({ title: 'One' });
        await expect(collection.create({ title: 'One' })).rejects.toBeInstanceOf(ConstraintViolation);
        const second = await collection.create({ title: 'Two' });
        await expect(collection.update(second.id, { title: 'One' }, [])).rejects.toBeInstanceOf(ConstraintViolation);
        const changes = await since(log, start);
        expect(changes.map((change) => [change.kind, change.id])).toEqual([
          ['created', first.id],
          ['created', second.id],
        ]);
      } finally {
        await store.close();
      }
    });

    // SQLite's transactions take the write lock when they begin: they never overlap.
    it.skipIf(database.label === 'SQLite')(
      'the transaction that begins first and commits last gets the larger positions',
      async () => {
        const { store } = database.open();
        try {
          const schema = issues('order');
          store.collection(schema);
          await store.init([schema]);
          const log = store.changes();
          const start = await log.head();
          const { open, opened } = gate();
          const written = gate();
          const first = store.transaction(async (tx) => {
            const made = await tx.collection(schema).create({ title: 'first begun' });
            written.open();
            await opened; // commits after the second
            return made;
          });
          await written.opened;
          const second = await store.transaction((tx) => tx.collection(schema).create({ title: 'second begun' }));
          open();
          const early = await first;
          const changes = await since(log, start);
          expect(changes.map((change) => change.id)).toEqual([second.id, early.id]);
          expect((changes[1] as Change).seq).toBeGreaterThan((changes[0] as Change).seq);
        } finally {
          await store.close();
        }
      },
    );
  });
}

describe('the cost of a live write: statements per write, besides BEGIN and COMMIT', () => {
  let prefixes = 0;
  const run = Math.random().toString(36).slice(2, 6);
  const stores = countedStores(folder, 'counted.sqlite', {
    prefix: () => `c${run}_${++prefixes}_`,
    dropping: droppingTables,
  }).filter(([label]) => label !== 'memory store');
  for (const [label, setup] of stores) {
    it(label, async () => {
      const { store, counter, release } = setup();
      try {
        const counts: Record<string, number[]> = {};
        for (const live of [false, true]) {
          const schema = issues(live ? 'counted_live' : 'counted_quiet', live);
          const collection = store.collection(schema);
          await store.init?.([schema]);
          const measure = async (write: () => Promise<unknown>) => {
            counter.queries = 0;
            counter.statements = [];
            await write();
            const begun = counter.statements.filter((statement) => /^begin/i.test(statement)).length;
            if (live) expect(begun).toBe(1); // the write and its change in one transaction
            return counter.statements.filter((statement) => !/^(begin|commit)/i.test(statement)).length;
          };
          const made = await collection.create({ title: 'warm-up' }); // the first write prunes (live)
          await new Promise((resolve) => setTimeout(resolve, 50));
          counts[live ? 'live' : 'quiet'] = [
            await measure(() => collection.create({ title: 'A' })),
            await measure(() => collection.update(made.id, { status: 'done' }, [])),
            await measure(() => collection.destroy(made.id, [])),
          ];
        }
        const [create, update, destroy] = counts.quiet as [number, number, number];
        // Live: the change's INSERT and (PostgreSQL: the advisory lock and NOTIFY; MySQL/MariaDB:
        // the counter's UPDATE) one more; a locked read of the record before an update or destroy.
        const final = label === 'SQLite' ? 1 : 2;
        expect(counts.live).toEqual([create + final, update + final + 1, destroy + final + 1]);
      } finally {
        await store.close?.();
        await release?.();
      }
    });
  }
});
