// The memory store's decimal order, uuid id walk and per-group cut must answer exactly what a
// full scan and a full sort answer, whatever the writes (and undone transactions) did before.
import { memoryStore } from '@resourcery/core';
import {
  type CollectionSchema,
  type Condition,
  canonicalDecimal,
  compareDecimals,
  compareScalars,
  type Order,
  type Scalar,
  type StoredRecord,
} from '@resourcery/core/store';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { compareDecimalText } from '../src/store/compare.js';

const schema: CollectionSchema = {
  name: 'things',
  attributes: [
    { name: 'id', type: 'uuid', nullable: false },
    { name: 'group', type: 'integer', nullable: true },
    { name: 'price', type: 'decimal', nullable: true, scale: 2, precision: 15 },
  ],
  indexed: ['group', 'price'],
};

const decimal = fc
  .tuple(fc.boolean(), fc.nat({ max: 100_000 }), fc.nat({ max: 99 }))
  .map(
    ([negative, whole, cents]) => canonicalDecimal(`${negative ? '-' : ''}${whole}.${cents}`, 2, 15).value as string,
  );
const price = fc.oneof(fc.constantFrom('0.00', '9.99', '10.00', '-0.50', null), decimal);
const group = fc.constantFrom(1, 2, 3, null);
const id = fc.uuid({ version: 4 }).map((text) => text.toLowerCase());
const values = fc.record({ group, price });
const write = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), id, values }),
  fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), values }),
  fc.record({ kind: fc.constant('destroy' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('rollback' as const), pick: fc.nat(), id, values }),
);
const condition: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({ field: fc.constant('group'), values: fc.uniqueArray(group, { minLength: 1, maxLength: 3 }) }),
  fc.record({ field: fc.constant('price'), values: fc.uniqueArray(price, { minLength: 1, maxLength: 3 }) }),
);
const key = fc.record({
  field: fc.constantFrom('group', 'price'),
  direction: fc.constantFrom('asc' as const, 'desc' as const),
});
const order = fc
  .tuple(
    fc.uniqueArray(key, { maxLength: 2, selector: (entry) => entry.field }),
    fc.constantFrom('asc' as const, 'desc' as const),
  )
  .map(([keys, direction]): Order[] => [...keys, { field: 'id', direction }]);

function compare(field: string, a: Scalar, b: Scalar): number {
  if (field !== 'price' || a === null || b === null) return compareScalars(a, b);
  return compareDecimals(a as string, b as string);
}

function naive(records: StoredRecord[], where: Condition[], sort: Order[], cap?: number): StoredRecord[] {
  const sorted = records
    .filter((record) => where.every(({ field, values }) => values.includes((record[field] ?? null) as Scalar)))
    .sort((a, b) => {
      for (const { field, direction } of sort) {
        const result = compare(field, (a[field] ?? null) as Scalar, (b[field] ?? null) as Scalar);
        if (result !== 0) return direction === 'asc' ? result : -result;
      }
      return 0;
    });
  if (cap === undefined) return sorted;
  return sorted.filter((record, index) => sorted.slice(0, index).filter((r) => r.group === record.group).length < cap);
}

it('compareDecimalText orders canonical decimals as compareDecimals does', () => {
  fc.assert(
    fc.property(decimal, decimal, (a, b) => {
      expect(Math.sign(compareDecimalText(a, b))).toBe(Math.sign(compareDecimals(a, b)));
    }),
    { numRuns: 2000 },
  );
});

it('list answers what a full scan, a full sort and a per-group cut answer', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(write, { maxLength: 50 }),
      fc.array(condition, { maxLength: 2 }),
      order,
      fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      fc.record({ offset: fc.nat({ max: 20 }), limit: fc.integer({ min: 1, max: 10 }), count: fc.boolean() }),
      async (writes, where, sort, cap, { offset, limit, count }) => {
        const store = memoryStore().collection(schema);
        const model = new Map<string, StoredRecord>();
        const pick = (n: number) => [...model.keys()].sort()[n % Math.max(model.size, 1)] ?? 'none';
        for (const change of writes) {
          if (change.kind === 'create') {
            if (model.has(change.id)) continue;
            await store.create({ id: change.id, ...change.values });
            model.set(change.id, { id: change.id, ...change.values });
          } else if (change.kind === 'update') {
            const record = model.get(pick(change.pick));
            if (record) await store.update(record.id, change.values, []);
            if (record) Object.assign(record, change.values);
          } else if (change.kind === 'destroy') {
            const target = pick(change.pick);
            await store.destroy(target, []);
            model.delete(target);
          } else {
            const target = pick(change.pick);
            await store
              .transaction(async (inner) => {
                await inner.update(target, change.values, []);
                await inner.destroy(target, []);
                if (!model.has(change.id)) await inner.create({ id: change.id, ...change.values });
                throw new Error('roll back');
              })
              .catch(() => undefined);
          }
        }
        const perGroup = cap === undefined ? undefined : { field: 'group', limit: cap };
        const expected = naive([...model.values()], where, sort, cap);
        const got = await store.list({ where, order: sort, limit, offset, count, perGroup });
        expect(got.records).toEqual(expected.slice(offset, offset + limit));
        expect(got.total).toBe(count ? expected.length : undefined);
      },
    ),
    { numRuns: 300 },
  );
});
