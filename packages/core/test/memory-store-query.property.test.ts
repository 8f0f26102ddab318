// The memory store's operators, relation filters, keyset positions and selected fields must
// answer what a full scan written from CONTRACT part 3 answers.
import { memoryStore } from '@resourcery/core';
import {
  type CollectionSchema,
  type Condition,
  compareDecimals,
  compareScalars,
  type Order,
  type Scalar,
  type StoredRecord,
} from '@resourcery/core/store';
import fc from 'fast-check';
import { expect, it } from 'vitest';

const groups: CollectionSchema = {
  name: 'groups',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'label', type: 'string', nullable: true },
  ],
  indexed: ['label'],
};
const things: CollectionSchema = {
  name: 'things',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'groupId', type: 'integer', nullable: true },
    { name: 'name', type: 'string', nullable: true },
    { name: 'price', type: 'decimal', nullable: true, scale: 2, precision: 15 },
  ],
  indexed: ['groupId', 'name', 'price'],
  references: [{ field: 'groupId', collection: 'groups', onDelete: 'nullify' }],
};

const label = fc.constantFrom('red', 'green', 'blue', null);
const name = fc.constantFrom('ab', 'abc', 'b', 'ba', '%_', 'é', '😀', '', null);
const price = fc.constantFrom('-10.00', '-0.50', '0.00', '0.50', '9.99', '10.00', '100.00', null);
const groupId = fc.constantFrom(1, 2, 3, 4, null);
const thing = fc.record({ groupId, name, price });
const op = fc.constantFrom('ne', 'gt', 'gte', 'lt', 'lte') as fc.Arbitrary<'ne' | 'gt' | 'gte' | 'lt' | 'lte'>;
const condition: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({ field: fc.constant('name'), values: fc.uniqueArray(name, { minLength: 1, maxLength: 2 }) }),
  fc.record({ field: fc.constant('name'), op, values: fc.tuple(name.filter((value) => value !== null)) }),
  fc.record({ field: fc.constant('price'), op, values: fc.tuple(price.filter((p) => p !== null)) }),
  fc.record({
    field: fc.constant('name'),
    op: fc.constantFrom('prefix' as const, 'contains' as const),
    values: fc.tuple(fc.constantFrom('a', 'b', 'ab', '%', '')),
  }),
  fc.record({
    field: fc.constantFrom('name', 'price', 'groupId'),
    op: fc.constant('null' as const),
    values: fc.tuple(fc.boolean()),
  }),
  fc.record({
    field: fc.constant('groupId'),
    values: fc.constant([]),
    related: fc.record({
      collection: fc.constant('groups'),
      where: fc.tuple(
        fc.record({ field: fc.constant('label'), values: fc.uniqueArray(label, { minLength: 1, maxLength: 2 }) }),
      ),
    }),
  }),
);
const key = fc.record({
  field: fc.constantFrom('groupId', 'name', 'price'),
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

function holds(record: StoredRecord, condition: Condition, labels: Map<number, Scalar>): boolean {
  const value = (record[condition.field] ?? null) as Scalar;
  const operand = condition.values[0] ?? null;
  if (condition.related) {
    const wanted = condition.related.where[0]?.values ?? [];
    return value !== null && labels.has(value as number) && wanted.includes(labels.get(value as number) ?? null);
  }
  if (!condition.op) return condition.values.includes(value);
  if (condition.op === 'null') return (value === null) === operand;
  if (value === null || operand === null) return false;
  if (condition.op === 'prefix') return String(value).startsWith(String(operand));
  if (condition.op === 'contains') return String(value).includes(String(operand));
  if (condition.op === 'ne') return value !== operand;
  const sign = compare(condition.field, value, operand);
  return { gt: sign > 0, gte: sign >= 0, lt: sign < 0, lte: sign <= 0 }[condition.op];
}

function sorter(sort: Order[]) {
  return (a: StoredRecord, b: StoredRecord) => {
    for (const { field, direction } of sort) {
      const result = compare(field, (a[field] ?? null) as Scalar, (b[field] ?? null) as Scalar);
      if (result !== 0) return direction === 'asc' ? result : -result;
    }
    return 0;
  };
}

it('list answers what a full scan answers: operators, relation filters, after and select', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(label, { minLength: 3, maxLength: 3 }),
      fc.array(thing, { maxLength: 40 }),
      fc.array(condition, { maxLength: 3 }),
      order,
      fc.option(fc.nat(), { nil: undefined }),
      fc.record({ limit: fc.integer({ min: 1, max: 10 }), count: fc.boolean(), select: fc.boolean() }),
      async (groupLabels, seeds, where, sort, afterIndex, { limit, count, select }) => {
        const store = memoryStore();
        const labels = new Map<number, Scalar>();
        for (const [index, value] of groupLabels.entries()) {
          await store.collection(groups).create({ label: value });
          labels.set(index + 1, value);
        }
        const collection = store.collection(things);
        const created: StoredRecord[] = [];
        for (const values of seeds) {
          const known = values.groupId === null || labels.has(values.groupId) ? values : { ...values, groupId: null };
          created.push(await collection.create(known));
        }
        // Every third record goes: its id stays in the id list as a hole, and may be the position.
        for (const record of created) if ((record.id as number) % 3 === 0) await collection.destroy(record.id, []);
        const model = created.filter((record) => (record.id as number) % 3 !== 0);
        const matching = model.filter((record) => where.every((c) => holds(record, c, labels))).sort(sorter(sort));
        const pivot =
          afterIndex === undefined || created.length === 0 ? undefined : created[afterIndex % created.length];
        const after = pivot && sort.map(({ field }) => (pivot[field] ?? null) as Scalar);
        const fields = select ? ['price'] : undefined;
        const got = await collection.list({ where, order: sort, limit, offset: 0, count, after, select: fields });
        const expected = matching
          .filter((record) => !pivot || sorter(sort)(record, pivot) > 0)
          .slice(0, limit)
          .map((record) => (fields ? { id: record.id, price: record.price } : record));
        expect(got.records).toEqual(expected);
        expect(got.total).toBe(count ? matching.length : undefined);
      },
    ),
    { numRuns: 400 },
  );
});
