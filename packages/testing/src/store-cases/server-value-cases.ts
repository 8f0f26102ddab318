import type { Collection, CollectionSchema, StoredRecord, StoreTransaction } from '@resourcery/core/store';
import { expect } from 'vitest';
import type { CaseHome, StoreCaseGroup } from './fixtures.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PAST = '2001-02-03T04:05:06.789Z';

/**
 * `notes` (uuid id, `status` defaulting to `draft`, `createdAt` and `updatedAt` set by the
 * store) and `counters` (integer id, `count` defaulting to 0, only `updatedAt`).
 */
function stampedSchemas(prefix: string): CollectionSchema[] {
  return [
    {
      name: `${prefix}_notes`,
      attributes: [
        { name: 'id', type: 'uuid', nullable: false },
        { name: 'title', type: 'string', nullable: false, maxLength: 200 },
        { name: 'status', type: 'string', nullable: false, maxLength: 20, default: 'draft' },
        { name: 'createdAt', type: 'date-time', nullable: false, timestamp: 'create' },
        { name: 'updatedAt', type: 'date-time', nullable: false, timestamp: 'update' },
      ],
      indexed: ['createdAt'],
    },
    {
      name: `${prefix}_counters`,
      attributes: [
        { name: 'id', type: 'integer', nullable: false },
        { name: 'label', type: 'string', nullable: false, maxLength: 200 },
        { name: 'count', type: 'integer', nullable: false, default: 0 },
        { name: 'updatedAt', type: 'date-time', nullable: false, timestamp: 'update' },
      ],
      indexed: [],
    },
  ];
}

type Stamped = (notes: Collection, counters: Collection, home: CaseHome) => Promise<void>;

function stampedGroup(name: string, cases: Record<string, Stamped>): StoreCaseGroup {
  const wrapped = Object.fromEntries(
    Object.entries(cases).map(([caseName, test]) => [
      caseName,
      (notes: Collection, home: CaseHome) => test(notes, home.collections[1] as Collection, home),
    ]),
  );
  return { name, schemas: stampedSchemas, cases: wrapped };
}

/** Runs `write` and checks that the record it answers was stamped within the call, once for both timestamps. */
async function stampedNow(write: () => Promise<StoredRecord>): Promise<StoredRecord> {
  const before = new Date().toISOString();
  const record = await write();
  const after = new Date().toISOString();
  expect(typeof record.updatedAt).toBe('string');
  const stamp = record.updatedAt as string;
  expect(stamp >= before && stamp <= after, `${stamp} within ${before} and ${after}`).toBe(true);
  return record;
}

/** The collections of the group bound to a store transaction. */
function inTransaction<T>(
  home: CaseHome,
  work: (notes: Collection, counters: Collection, tx: StoreTransaction) => Promise<T>,
): Promise<T> {
  const [notes, counters] = home.schemas as [CollectionSchema, CollectionSchema];
  return home.store.transaction((tx) => work(tx.collection(notes), tx.collection(counters), tx));
}

/**
 * Server values: a uuid id, the timestamps and the defaults are the store's to set, on every
 * path a write takes (`collection(schema)`, `store.transaction`, nested and collection
 * transactions), the same way.
 */
export const serverValueCases = stampedGroup('server values', {
  'a create gets a new uuid id, the time of the write in both timestamps, and its defaults': async (notes) => {
    const note = await stampedNow(() => notes.create({ title: 'Dune' }));
    expect(note.id).toMatch(UUID_V4);
    expect(note).toStrictEqual({
      id: note.id,
      title: 'Dune',
      status: 'draft',
      createdAt: note.updatedAt,
      updatedAt: note.updatedAt,
    });
    expect(await notes.find(note.id, [])).toStrictEqual(note);
    const other = await notes.create({ title: 'Dune' });
    expect(other.id).not.toBe(note.id);
  },

  'a raw store transaction sets the same values, nested or not': async (_notes, _counters, home) => {
    const [schema] = home.schemas as [CollectionSchema];
    const [note, counter, nested, viaCollection] = await inTransaction(home, async (notes, counters, tx) => {
      const note = await stampedNow(() => notes.create({ title: 'Ubik' }));
      const counter = await stampedNow(() => counters.create({ label: 'visits' }));
      const nested = await tx.transaction((inner) => inner.collection(schema).create({ title: 'Valis' }));
      const viaCollection = await notes.transaction((inner) => inner.create({ title: 'Emma' }));
      return [note, counter, nested, viaCollection];
    });
    expect(note.id).toMatch(UUID_V4);
    expect(note).toMatchObject({ status: 'draft', createdAt: note.updatedAt });
    expect(counter).toStrictEqual({ id: 1, label: 'visits', count: 0, updatedAt: counter.updatedAt });
    for (const record of [nested, viaCollection]) {
      expect(record.id).toMatch(UUID_V4);
      expect(typeof record.createdAt).toBe('string');
      expect(record).toMatchObject({ status: 'draft', updatedAt: record.createdAt });
    }
    const [notes] = home.collections as [Collection];
    expect(await notes.find(note.id, [])).toStrictEqual(note);
  },

  'an update that changes something sets updatedAt, in and out of a transaction; createdAt stays': async (
    notes,
    counters,
    home,
  ) => {
    const note = await notes.create({ title: 'Dune', createdAt: PAST, updatedAt: PAST });
    const counter = await counters.create({ label: 'visits', updatedAt: PAST });
    const changed = await stampedNow(async () => (await notes.update(note.id, { title: 'Dune II' }, [])) as never);
    expect(changed).toStrictEqual({ ...note, title: 'Dune II', updatedAt: changed.updatedAt });
    expect(changed.updatedAt).not.toBe(PAST);
    const counted = await inTransaction(home, (_, txCounters) =>
      stampedNow(async () => (await txCounters.update(counter.id, { count: 1 }, [])) as never),
    );
    expect(counted).toStrictEqual({ id: counter.id, label: 'visits', count: 1, updatedAt: counted.updatedAt });
    expect(await counters.find(counter.id, [])).toStrictEqual(counted);
  },

  'an update of no field changes nothing, updatedAt included': async (notes, counters, home) => {
    const note = await notes.create({ title: 'Dune', createdAt: PAST, updatedAt: PAST });
    expect(await notes.update(note.id, {}, [])).toStrictEqual(note);
    await inTransaction(home, async (txNotes) => {
      expect(await txNotes.update(note.id, {}, [])).toStrictEqual(note);
    });
    const counter = await counters.create({ label: 'visits', updatedAt: PAST });
    expect(await counters.update(counter.id, {}, [])).toStrictEqual(counter);
  },

  'values the write gives are kept: an id, a timestamp, a value instead of the default': async (notes, counters) => {
    const id = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
    const note = await notes.create({ id, title: 'Dune', status: 'final', createdAt: PAST });
    expect(note).toStrictEqual({ id, title: 'Dune', status: 'final', createdAt: PAST, updatedAt: note.updatedAt });
    expect(note.updatedAt).not.toBe(PAST);
    const later = '2002-02-03T04:05:06.789Z';
    expect(await notes.update(id, { title: 'Dune II', updatedAt: later }, [])).toMatchObject({ updatedAt: later });
    const counter = await counters.create({ label: 'visits', count: 7 });
    expect(counter).toMatchObject({ count: 7 });
  },
});
