import type { CollectionSchema, ListQuery } from '@resourcery/core/store';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { listShape, Shapes } from '../src/execute/shapes.js';
import { sqlStore } from '../src/index.js';

// biome-ignore lint/suspicious/noExplicitAny: a table known only here
const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
afterAll(() => db.destroy());

const query: ListQuery = {
  where: [{ field: 'author', values: ['Le Guin'] }],
  order: [
    { field: 'name', direction: 'desc' },
    { field: 'id', direction: 'desc' },
  ],
  limit: 20,
  offset: 40,
  count: true,
};

describe('statements compiled once per shape', () => {
  it('compiles a shape once (and checks the template against the call), then only fills in values', () => {
    const shapes = new Shapes();
    let builds = 0;
    const build = (values: readonly unknown[]) => {
      builds++;
      return db
        .selectFrom('books')
        .selectAll()
        .where('id', '=', values[0])
        .limit(values[1] as number);
    };
    const first = shapes.compiled('find', [1, 5], build);
    expect(builds).toBe(2);
    const second = shapes.compiled('find', [7, 9], build);
    expect(builds).toBe(2);
    expect(second.sql).toBe(first.sql);
    expect(second.parameters).toEqual([7, 9]);
  });

  it('builds for each call a shape whose builder looks at the values', () => {
    const shapes = new Shapes();
    let builds = 0;
    const build = (values: readonly unknown[]) => {
      builds++;
      const select = db.selectFrom('books').selectAll();
      return typeof values[0] === 'number' && values[0] > 10 ? select.where('id', '>', values[0]) : select;
    };
    expect(shapes.compiled('looks', [20], build).parameters).toEqual([20]);
    expect(shapes.compiled('looks', [3], build).parameters).toEqual([]);
    expect(shapes.compiled('looks', [30], build).parameters).toEqual([30]);
    expect(builds).toBe(4); // the template and the call's own, then one per call
  });

  it('keys list queries by everything their SQL depends on, not by their values', () => {
    const columns = ['id', 'name', 'author'];
    const key = (changes: Partial<ListQuery>) => listShape({ ...query, ...changes }, columns)?.key;
    expect(key({ where: [{ field: 'author', values: ['Butler'] }], limit: 50, offset: 90 })).toBe(key({}));
    expect(key({ offset: 0 })).not.toBe(key({}));
    expect(key({ count: false })).not.toBe(key({}));
    expect(key({ where: [{ field: 'author', values: [null] }] })).not.toBe(key({}));
    expect(key({ where: [{ field: 'author', values: ['a', 'b'] }] })).not.toBe(key({}));
    expect(key({ where: [{ field: 'author', op: 'gt', values: ['a'] }] })).not.toBe(key({}));
    expect(key({ order: [{ field: 'id', direction: 'asc' }] })).not.toBe(key({}));
    expect(key({ where: [{ field: 'name', op: 'prefix', values: ['The'] }] })).toBeUndefined();
    // `IS NULL` and `IS NOT NULL` are two shapes: the operand is in the key, not among the values.
    const unset = (operand: boolean) =>
      listShape({ ...query, where: [{ field: 'author', op: 'null', values: [operand] }] }, columns);
    expect(unset(true).key).toBeDefined();
    expect(unset(true).key).not.toBe(unset(false).key);
    expect(unset(true).values).toEqual([20, 40]);
    // A relation filter is keyed by its collection, key and nested shape; its values come after the condition's own.
    const related = (name: string | string[], collection = 'authors', more: ListQuery['where'] = []) =>
      listShape(
        {
          ...query,
          where: [
            { field: 'name', values: ['x'] },
            {
              field: 'authorId',
              values: [],
              related: { collection, where: [{ field: 'name', values: [name].flat() }, ...more] },
            },
          ],
        },
        columns,
      );
    expect(related('Butler').key).toBe(related('Le Guin').key);
    expect(related('Butler').values).toEqual(['x', 'Butler', 20, 40]);
    expect(related('Butler').key).not.toBe(related(['Butler', 'Le Guin']).key);
    expect(related('Butler').key).not.toBe(related('Butler', 'editors').key);
    expect(related('Butler', 'authors', [{ field: 'born', op: 'null', values: [true] }]).key).not.toBe(
      related('Butler', 'authors', [{ field: 'born', op: 'null', values: [false] }]).key,
    );
    expect(related('Butler', 'authors', [{ field: 'name', op: 'contains', values: ['u'] }]).key).toBeUndefined();
    // A per-group list's SQL has one part per value of its IN on the field, and its limit.
    const group = (values: string[], limit = 3) =>
      key({ where: [{ field: 'author', values }], perGroup: { field: 'author', limit } });
    expect(group(['a', 'b'])).toBe(group(['c', 'd']));
    expect(group(['a', 'b'])).not.toBe(key({ where: [{ field: 'author', values: ['a', 'b'] }] }));
    expect(group(['a', 'b'])).not.toBe(group(['a', 'b', 'c']));
    expect(group(['a', 'b'])).not.toBe(group(['a', 'b'], 4));
    expect(group(['a', 'a'])).toBeUndefined();
  });

  it('answers the same records through a kept shape as through a fresh one', async () => {
    const schema: CollectionSchema = {
      name: 'shapes_books',
      attributes: [
        { name: 'id', type: 'integer', nullable: false },
        { name: 'name', type: 'string', nullable: false },
        { name: 'price', type: 'decimal', nullable: true, scale: 2 },
      ],
      indexed: [],
    };
    const compiled = vi.spyOn(Shapes.prototype, 'compiled');
    const store = sqlStore('sqlite::memory:');
    await store.init([schema]);
    const books = store.collection(schema);
    for (const [name, price] of [
      ['A', '1.50'],
      ['B', '12.00'],
      ['C', null],
      ['D', '12.00'],
    ] as const) {
      await books.create({ name, price });
    }
    const page = (price: string, offset: number) =>
      books.list({
        where: [{ field: 'price', op: 'gte', values: [price] }],
        order: [{ field: 'id', direction: 'asc' }],
        limit: 1,
        offset,
        count: true,
      });
    // The decimal goes through the column's writer (scaled) in the kept statement as well.
    expect(await page('2', 1)).toEqual({ records: [{ id: 4, name: 'D', price: '12.00' }], total: 2 });
    expect(await page('1', 2)).toEqual({ records: [{ id: 4, name: 'D', price: '12.00' }], total: 3 });
    expect(await books.update(2, { price: '3.25' }, [])).toEqual({ id: 2, name: 'B', price: '3.25' });
    expect(await books.update(3, { price: '4.00' }, [{ field: 'name', values: ['C'] }])).toMatchObject({ id: 3 });
    expect(await books.update(1, { price: '5.00' }, [{ field: 'name', values: ['Z'] }])).toBeUndefined();
    expect(await books.find(3, [])).toEqual({ id: 3, name: 'C', price: '4.00' });
    // Kept: two creates (a price and none), the page, two updates (with and without conditions), the find.
    const shapes = new Set(compiled.mock.contexts as Shapes[]);
    expect([...shapes].map((each) => each.size)).toEqual([6]);
    compiled.mockRestore();
    await store.close();
  });
});
