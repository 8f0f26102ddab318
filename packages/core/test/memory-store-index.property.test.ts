// The memory store's indexes, top-k selection and id walk must answer exactly what a full scan
// and a full sort answer, whatever the writes (including transactions rolled back) did before.
import { memoryStore } from '@resourcery/core';
import {
  type CollectionSchema,
  type Condition,
  compareScalars,
  type Order,
  type Scalar,
  type StoredRecord,
} from '@resourcery/core/store';
import fc from 'fast-check';
import { expect, it } from 'vitest';

const schema: CollectionSchema = {
  name: 'things',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'color', type: 'string', nullable: true },
    { name: 'size', type: 'integer', nullable: true },
    { name: 'note', type: 'string', nullable: true },
  ],
  indexed: ['color', 'size'],
};

const color = fc.constantFrom('red', 'green', 'blue', null);
const size = fc.constantFrom(1, 2, 3, null);
const note = fc.constantFrom('a', 'b', null);
const values = fc.record({ color, size, note }, { requiredKeys: [] });
const write = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), values }),
  fc.record({ kind: fc.constant('update' as const), id: fc.integer({ min: 1, max: 40 }), values }),
  fc.record({ kind: fc.constant('destroy' as const), id: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('rollback' as const), id: fc.integer({ min: 1, max: 40 }), values }),
);
const condition: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({ field: fc.constant('color'), values: fc.uniqueArray(color, { minLength: 1, maxLength: 3 }) }),
  fc.record({ field: fc.constant('size'), values: fc.uniqueArray(size, { minLength: 1, maxLength: 3 }) }),
  fc.record({ field: fc.constant('note'), values: fc.uniqueArray(note, { minLength: 1, maxLength: 2 }) }),
  fc.record({
    field: fc.constant('id'),
    values: fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 }),
  }),
);
const key = fc.record({
  field: fc.constantFrom('color', 'size', 'note'),
  direction: fc.constantFrom('asc' as const, 'desc' as const),
});
const order = fc
  .tuple(
    fc.uniqueArray(key, { maxLength: 2, selector: (entry) => entry.field }),
    fc.constantFrom('asc' as const, 'desc' as const),
  )
  .map(([keys, direction]): Order[] => [...keys, { field: 'id', direction }]);

function naive(records: StoredRecord[], where: Condition[], sort: Order[]): StoredRecord[] {
  return records
    .filter((record) => where.every(({ field, values }) => values.includes((record[field] ?? null) as Scalar)))
    .sort((a, b) => {
      for (const { field, direction } of sort) {
        const result = compareScalars((a[field] ?? null) as Scalar, (b[field] ?? null) as Scalar);
        if (result !== 0) return direction === 'asc' ? result : -result;
      }
      return 0;
    });
}

it('list answers what a full scan and sort answer', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(write, { maxLength: 60 }),
      fc.array(condition, { maxLength: 2 }),
      order,
      fc.integer({ min: 0, max: 30 }),
      fc.integer({ min: 1, max: 10 }),
      fc.boolean(),
      async (writes, where, sort, offset, limit, count) => {
        const store = memoryStore().collection(schema);
        // The model: what the store must hold after the writes.
        const model = new Map<number, StoredRecord>();
        let lastId = 0;
        for (const change of writes) {
          if (change.kind === 'create') {
            const record = await store.create(change.values);
            lastId++;
            model.set(lastId, { id: lastId, color: null, size: null, note: null, ...change.values });
            expect(record.id).toBe(lastId);
          } else if (change.kind === 'update') {
            await store.update(change.id, change.values, []);
            const record = model.get(change.id);
            if (record) Object.assign(record, change.values);
          } else if (change.kind === 'destroy') {
            await store.destroy(change.id, []);
            model.delete(change.id);
          } else {
            await store
              .transaction(async (inner) => {
                await inner.update(change.id, change.values, []);
                await inner.destroy(change.id, []);
                await inner.create(change.values);
                throw new Error('roll back');
              })
              .catch(() => undefined);
            lastId++; // ids are never reused, even after a rollback
          }
        }
        const all = [...model.values()];
        const expected = naive(all, where, sort);
        const got = await store.list({ where, order: sort, limit, offset, count });
        expect(got.records).toEqual(expected.slice(offset, offset + limit));
        expect(got.total).toBe(count ? expected.length : undefined);
      },
    ),
    { numRuns: 300 },
  );
});

it('keeps id order through many deletes and a rolled-back destroy', async () => {
  const store = memoryStore().collection(schema);
  for (let i = 0; i < 300; i++) await store.create({ color: i % 2 ? 'red' : 'blue', size: i % 3 });
  for (let id = 1; id <= 300; id += 2) if (id !== 151) await store.destroy(id, []);
  await store.destroy(2, []); // 150 holes: the next delete compacts the id list
  await store
    .transaction(async (inner) => {
      await inner.destroy(151, []);
      throw new Error('roll back');
    })
    .catch(() => undefined);
  const page = await store.list({
    where: [],
    order: [{ field: 'id', direction: 'desc' }],
    limit: 3,
    offset: 74,
    count: true,
  });
  const ids = [...Array.from({ length: 149 }, (_, i) => 2 * i + 4), 151].sort((a, b) => b - a);
  expect(page.records.map((record) => record.id)).toEqual(ids.slice(74, 77));
  expect(page.total).toBe(150);
  const blue = await store.list({
    where: [{ field: 'color', values: ['blue'] }],
    order: [{ field: 'id', direction: 'asc' }],
    limit: 2,
    offset: 0,
    count: true,
  });
  expect(blue.records.map((record) => record.id)).toEqual([151]);
  expect(blue.total).toBe(1);
});
