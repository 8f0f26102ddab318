// The SQL stores must answer every list query exactly as the memory store, the oracle of the
// store interface, does: random records (nulls, ties, strings that trip collations and LIKE)
// and random queries (every operator of each type, relation filters, orders of one to three
// keys then id, limit/offset pages, `after` walks and positions, `select`, per-group limits,
// `q=` searches over Unicode text: several scripts, accents composed and apart, case pairs that
// fold specially, punctuation and `_`, nulls; alone and within one owner, the tenant), and every statistics query (groups of up to three
// attributes, exact sums past 2^53, min and max). Items also hold a set of owner ids through a
// join collection (`linkIds`, many-to-many), read with every record, and relation filters go
// through it too (`related.key`), alone and within an owner (whose count the join table's copy of
// the owner answers alone).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStore } from '@resourcery/core';
import {
  type AggregateQuery,
  type AttributeSchema,
  type Collection,
  type CollectionSchema,
  type Condition,
  type Id,
  type ListQuery,
  type Order,
  type Scalar,
  type StoredRecord,
  searchWords,
} from '@resourcery/core/store';
import { type SqlStoreProvider, sqlStore } from '@resourcery/sql';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { droppingTables, SERVERS, serverAvailable } from './helpers/databases.js';

const RUNS = Number(process.env.QUERY_EQUIVALENCE_RUNS ?? 60);

type Op = NonNullable<Condition['op']>;
interface Field {
  readonly attribute: AttributeSchema;
  readonly value: fc.Arbitrary<Scalar>;
  readonly ops: readonly Op[];
}

// Pieces of strings: LIKE's wildcards and escapes, case, a trailing space, U+FFFD and U+E000
// against an emoji (UTF-16 order is not code point order), the code points around the
// surrogates and the last one (where prefix ranges end).
const PIECES = ['a', 'A', 'b', '%', '_', '!', '\\', ' ', 'é', '\uFFFD', '\uE000', '😀', '\u{10FFFF}', '\uD7FF'];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 4 }).map((pieces) => pieces.join(''));
// Pieces of searched text: letters of several scripts, accents composed and as a separate mark,
// letters whose case folding is special (ß/ẞ, final sigma, dotted and dotless i, long s, Kelvin
// sign, Cherokee, titlecase ǅ), digits, and what separates words (`_`, punctuation, spaces).
const WORD_PIECES = [
  'a',
  'A',
  'é',
  'e\u0301',
  'É',
  'ß',
  'ẞ',
  'Σ',
  'σ',
  'ς',
  'İ',
  'i',
  'I',
  'ı',
  'ſ',
  's',
  'S',
  '\u212A',
  'k',
  'Ꭰ',
  'ꭰ',
  'ǅ',
  'ǆ',
  '東',
  '京',
  '١',
  '7',
  '²',
  '_',
  '-',
  ' ',
  ' ',
  '.',
  '😀',
  '\u00a0',
];
const wordText = fc.array(fc.constantFrom(...WORD_PIECES), { maxLength: 8 }).map((pieces) => pieces.join(''));
const UUIDS = ['00000000', '0a000000', '9f000000', 'a0000000', 'ffffffff'].map(
  (h) => `${h}-0000-4000-8000-000000000000`,
);
const ORDERED: readonly Op[] = ['ne', 'gt', 'gte', 'lt', 'lte'];

function field(name: string, type: AttributeSchema['type'], value: fc.Arbitrary<Scalar>, nullable = true): Field {
  const ops: Op[] = type === 'boolean' ? ['ne'] : [...ORDERED];
  if (type === 'string') ops.push('prefix', 'contains');
  if (nullable) ops.push('null');
  const attribute: AttributeSchema =
    type === 'decimal' ? { name, type, nullable, scale: 2, precision: 15 } : { name, type, nullable };
  return { attribute: name === 's' || name === 'w' ? { ...attribute, maxLength: 50 } : attribute, value, ops };
}

const ITEM_FIELDS: readonly Field[] = [
  field('s', 'string', text),
  field('t', 'string', text, false),
  field('n', 'integer', fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(-2147483649, 9007199254740991))),
  field('x', 'number', fc.constantFrom(-1.5, 0, 0.1, 0.2, 2.25, 3, 1e21, -1e-7)),
  field('d', 'decimal', fc.constantFrom('-9999999999999.99', '-100.00', '-0.05', '0.00', '0.10', '9.99', '10.00')),
  field(
    'at',
    'date-time',
    fc.constantFrom(
      '0001-01-01T00:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '2024-05-01T12:00:00.000Z',
      '2024-05-01T12:00:00.001Z',
      '9999-12-31T23:59:59.999Z',
    ),
  ),
  field('day', 'date', fc.constantFrom('0001-01-01', '1970-01-01', '2024-02-29', '2024-03-01', '9999-12-31')),
  field('b', 'boolean', fc.boolean()),
  field('u', 'uuid', fc.constantFrom(...UUIDS)),
  field('ownerId', 'integer', fc.integer({ min: 1, max: 5 })),
  field('w', 'string', wordText),
];
const OWNER_FIELDS: readonly Field[] = [
  field('name', 'string', fc.constantFrom('a', 'A', 'b%', 'é', '😀'), false),
  field('score', 'integer', fc.integer({ min: 1, max: 2 })),
];
const OWNERS = [
  { name: 'a', score: 1 },
  { name: 'A', score: null },
  { name: 'b%', score: 2 },
  { name: 'é', score: 2 },
  { name: '😀', score: null },
];

function schema(name: string, fields: readonly Field[], references: CollectionSchema['references'] = []) {
  const attributes = [{ name: 'id', type: 'integer', nullable: false } as const, ...fields.map((f) => f.attribute)];
  return { name, attributes, indexed: fields.map((f) => f.attribute.name), references };
}
const ownersSchema: CollectionSchema = schema('owners', OWNER_FIELDS);
const itemsSchema: CollectionSchema = {
  ...schema('items', ITEM_FIELDS, [{ field: 'ownerId', collection: 'owners', onDelete: 'nullify' }]),
  search: ['t', 'w'],
  sets: [{ field: 'linkIds', through: 'item_links', key: 'itemId', value: 'linkedId' }],
  // As a tenant's: PostgreSQL indexes the search by owner (search-tenant-words.ts), and reads
  // that index when the conditions keep one owner.
  tenant: 'ownerId',
};
const linksSchema: CollectionSchema = {
  name: 'item_links',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'itemId', type: 'integer', nullable: false },
    { name: 'linkedId', type: 'integer', nullable: false },
  ],
  indexed: [],
  unique: [['itemId', 'linkedId']],
  references: [
    { field: 'itemId', collection: 'items', onDelete: 'cascade' },
    { field: 'linkedId', collection: 'owners', onDelete: 'cascade' },
  ],
};

const stored = (f: Field) => (f.attribute.nullable ? fc.option(f.value, { nil: null, freq: 3 }) : f.value);
const item = fc.record({
  ...Object.fromEntries(ITEM_FIELDS.map((f) => [f.attribute.name, stored(f)])),
  linkIds: fc.shuffledSubarray([1, 2, 3, 4, 5]),
}) as unknown as fc.Arbitrary<Record<string, Scalar>>;

function conditionOf(fields: readonly Field[]): fc.Arbitrary<Condition> {
  return fc.constantFrom(...fields).chain((f) => {
    const name = f.attribute.name;
    const values = fc.uniqueArray(stored(f), { maxLength: 3 });
    const operand = (op: Op) =>
      op === 'null' ? fc.boolean() : op === 'prefix' || op === 'contains' ? text : (f.value as fc.Arbitrary<Scalar>);
    const withOp = fc
      .constantFrom(...f.ops)
      .chain((op) => operand(op).map((value): Condition => ({ field: name, op, values: [value] })));
    return fc.oneof(
      values.map((v): Condition => ({ field: name, values: v })),
      withOp,
      withOp,
    );
  });
}
const related: fc.Arbitrary<Condition> = fc
  .array(conditionOf(OWNER_FIELDS), { maxLength: 2 })
  .map((where) => ({ field: 'ownerId', values: [], related: { collection: 'owners', where } }));
// Through the join: the items linked to an owner matching the conditions.
const linked: fc.Arbitrary<Condition> = fc.array(conditionOf(OWNER_FIELDS), { maxLength: 2 }).map((where) => ({
  field: 'id',
  values: [],
  related: {
    collection: 'item_links',
    key: 'itemId',
    where: [{ field: 'linkedId', values: [], related: { collection: 'owners', where } }],
  },
}));
/** A `q=` search of the words of `q`, in some of the searchable fields (none: a caller who may read neither). */
const searchOf = (q: fc.Arbitrary<string>): fc.Arbitrary<Condition> =>
  fc
    .tuple(
      q.filter((words) => searchWords(words).length > 0),
      fc.subarray(['t', 'w']),
    )
    .map(([words, fields]) => ({
      field: fields[0] ?? 'id',
      values: [],
      search: { fields, words: [...new Set(searchWords(words))] },
    }));
/** A `q=` search: the words of random text (at least one). */
const searched = searchOf(fc.oneof(wordText, fc.constantFrom(...WORD_PIECES)));
const condition = fc.oneof({ arbitrary: conditionOf(ITEM_FIELDS), weight: 4 }, related, linked, {
  arbitrary: searched,
  weight: 2,
});
/** One owner's records (a tenant's) that a search of one piece of text finds (often some), and maybe one more condition. */
const tenantSearch = fc
  .tuple(
    fc.integer({ min: 1, max: 5 }),
    searchOf(fc.constantFrom(...WORD_PIECES)),
    fc.array(condition, { maxLength: 1 }),
  )
  .map(([owner, search, more]): Condition[] => [{ field: 'ownerId', values: [owner] }, search, ...more]);
/**
 * Items linked through the join within one owner (a tenant's), or none, or other owners: the join
 * table copies `ownerId` (ddl/join-copies.ts), whose count then reads the join table alone.
 */
const tenantLinked = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: 1, max: 5 }).map((owner): Condition => ({ field: 'ownerId', values: [owner] })),
      fc.constant<Condition>({ field: 'ownerId', values: [null] }),
      fc.integer({ min: 1, max: 5 }).map((owner): Condition => ({ field: 'ownerId', values: [owner], op: 'ne' })),
    ),
    linked,
  )
  .map(([owner, through]): Condition[] => [owner, through]);
const where = fc.oneof({ arbitrary: fc.array(condition, { maxLength: 3 }), weight: 2 }, tenantSearch, tenantLinked);

const direction = fc.constantFrom('asc' as const, 'desc' as const);
const order = fc
  .tuple(
    fc.uniqueArray(fc.record({ field: fc.constantFrom(...ITEM_FIELDS.map((f) => f.attribute.name)), direction }), {
      minLength: 1,
      maxLength: 3,
      selector: (key) => key.field,
    }),
    direction,
  )
  .map(([keys, last]): Order[] => [...keys, { field: 'id', direction: last }]);
const select = fc.option(fc.subarray([...ITEM_FIELDS.map((f) => f.attribute.name), 'linkIds']), { nil: undefined });
const perGroup = fc.option(
  fc.record({ field: fc.constantFrom('ownerId', 'b', 'n', 's'), limit: fc.integer({ min: 1, max: 3 }) }),
  { nil: undefined, freq: 4 },
);
const fieldNamed = new Map(ITEM_FIELDS.map((f) => [f.attribute.name, f]));
const position = (keys: readonly Order[]) =>
  fc.tuple(
    ...keys.map(({ field: name }) =>
      name === 'id' ? fc.integer({ min: 0, max: 20 }) : stored(fieldNamed.get(name) as Field),
    ),
  );

type Mode = 'page' | 'walk';
const query = fc
  .record({ where, order, select, perGroup, count: fc.boolean(), mode: fc.constantFrom<Mode>('page', 'walk') })
  .chain((base) =>
    fc.record({
      base: fc.constant(base),
      limit: fc.integer({ min: 1, max: base.mode === 'walk' ? 5 : 20 }),
      offset: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 20 })),
      after: fc.option(position(base.order), { nil: undefined }),
      findId: fc.integer({ min: 0, max: 20 }),
    }),
  );

// Statistics: any where, grouped by up to three attributes (not the float `x`), sums of the
// integer (values up to 2^53 - 1: sums past it) and the decimal, min and max of the ordered types.
const aggregateQuery: fc.Arbitrary<AggregateQuery> = fc.record({
  where,
  group: fc.uniqueArray(fc.constantFrom('s', 't', 'n', 'd', 'at', 'day', 'b', 'u', 'ownerId'), { maxLength: 3 }),
  sum: fc.subarray(['n', 'd']),
  min: fc.subarray(['n', 'd', 'at', 'day']),
  max: fc.subarray(['d', 'at', 'n', 'day']),
  limit: fc.integer({ min: 1, max: 20 }),
});

interface Pair {
  readonly memory: Collection;
  readonly sql: Collection;
}

interface Target {
  readonly label: string;
  open(): { store: SqlStoreProvider; tablePrefix: string };
}

const folder = mkdtempSync(join(tmpdir(), 'resourcery-equivalence-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const run = Math.random().toString(36).slice(2, 8);
const targets: Target[] = [
  { label: 'SQLite', open: () => ({ store: sqlStore(`sqlite:${join(folder, 'items.sqlite')}`), tablePrefix: '' }) },
];
for (const name of ['postgres', 'mariadb'] as const) {
  if (!serverAvailable(name)) continue;
  targets.push({
    label: SERVERS[name].label,
    open: () => {
      const tablePrefix = `q${run}_`;
      return { store: droppingTables(sqlStore(SERVERS[name].url, { tablePrefix }), tablePrefix), tablePrefix };
    },
  });
}

/** Lists both stores and expects the same answer (records in the same order, same total). */
async function same(pair: Pair, query: ListQuery): Promise<StoredRecord[]> {
  const expected = await pair.memory.list(query);
  const actual = await pair.sql.list(query);
  expect({ records: actual.records, total: actual.total }, JSON.stringify(query)).toStrictEqual({
    records: expected.records,
    total: expected.total,
  });
  return expected.records;
}

/** Empties the items of both stores and creates the same records in both (same ids, ids never reused). */
async function load(
  pair: Pair,
  target: { store: SqlStoreProvider; tablePrefix: string },
  records: readonly Record<string, Scalar>[],
) {
  await target.store.db.deleteFrom(`${target.tablePrefix}items`).execute();
  const old = await pair.memory.list({ where: [], order: [], limit: 10_000, offset: 0, count: false });
  for (const record of old.records) await pair.memory.destroy(record.id, []);
  const byId = new Map<Id, StoredRecord>();
  for (const values of records) {
    const expected = await pair.memory.create(values);
    expect(await pair.sql.create(values)).toStrictEqual(expected);
    byId.set(expected.id, expected);
  }
  return byId;
}

for (const target of targets) {
  let opened: { store: SqlStoreProvider; tablePrefix: string };
  let pair: Pair;
  beforeAll(async () => {
    opened = target.open();
    const memory = memoryStore();
    pair = { memory: memory.collection(itemsSchema), sql: opened.store.collection(itemsSchema) };
    const owners = [memory.collection(ownersSchema), opened.store.collection(ownersSchema)];
    memory.collection(linksSchema);
    opened.store.collection(linksSchema);
    await opened.store.init([ownersSchema, itemsSchema, linksSchema]);
    for (const owner of OWNERS) for (const collection of owners) await collection.create(owner);
  });
  afterAll(async () => {
    await opened?.store.close();
  });

  it(`${target.label} lists what the memory store lists, for any records and query`, async () => {
    const runs = fc.asyncProperty(
      fc.array(item, { maxLength: 14 }),
      fc.array(query, { minLength: 1, maxLength: 4 }),
      async (records, queries) => {
        const byId = await load(pair, opened, records);
        const ids = [...byId.keys()] as number[];
        for (const { base, limit, offset, after, findId } of queries) {
          const { where, order, select, perGroup, count, mode } = base;
          const found = ids[findId % Math.max(ids.length, 1)] ?? 1;
          expect(await pair.sql.find(found, where)).toStrictEqual(await pair.memory.find(found, where));
          const plain: ListQuery = { where, order, limit, offset: 0, count, select, perGroup };
          if (mode === 'page') {
            await same(pair, { ...plain, offset, after });
            continue;
          }
          // A walk: each page starts after the last record of the one before, as cursors do.
          let next: Scalar[] | undefined = after;
          for (let pages = 0; pages <= records.length + 1; pages++) {
            const page = await same(pair, { ...plain, after: next });
            const last = page[page.length - 1];
            if (!last || page.length < limit) break;
            const full = byId.get(last.id) as StoredRecord;
            next = order.map((key) => (full[key.field] ?? null) as Scalar);
          }
        }
      },
    );
    await fc.assert(runs, { numRuns: RUNS });
  }, 120_000);

  it(`${target.label} aggregates what the memory store aggregates, for any records and statistics query`, async () => {
    const runs = fc.asyncProperty(
      fc.array(item, { maxLength: 14 }),
      fc.array(aggregateQuery, { minLength: 1, maxLength: 4 }),
      async (records, queries) => {
        await load(pair, opened, records);
        for (const query of queries) {
          const expected = await pair.memory.aggregate?.(query);
          expect(await pair.sql.aggregate?.(query), JSON.stringify(query)).toStrictEqual(expected);
        }
      },
    );
    await fc.assert(runs, { numRuns: RUNS });
  }, 120_000);
}
