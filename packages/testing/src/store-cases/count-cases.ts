import type { Collection, ListQuery, ListResult } from '@resourcery/core/store';
import { expect } from 'vitest';
import { type BookValues, library, op, orderBy, seed, storeGroup, where } from './fixtures.js';

const query: ListQuery = { where: [], order: orderBy('-id'), limit: 3, offset: 0, count: 'estimated' };

/** The exact total of `where`, to compare an estimated count with. */
async function exact(store: Collection, conditions: ListQuery['where']): Promise<number | undefined> {
  return (await store.list({ ...query, where: conditions, count: true })).total;
}

/** 300 books by Le Guin, 100 by Butler, 10 by Jemisin (the Jemisin ones in 1990s years), in one go when the store can. */
async function seedMany(store: Collection): Promise<void> {
  const books: BookValues[] = [];
  for (let i = 0; i < 410; i++) {
    const author = i < 300 ? 'Le Guin' : i < 400 ? 'Butler' : 'Jemisin';
    books.push({ name: `Book ${i}`, author, year: author === 'Jemisin' ? 1990 + (i - 400) : 1950 });
  }
  if (store.createMany) await store.createMany(books);
  else await seed(store, books);
}

/**
 * An estimate past the cap: marked, the cap's worth of rows at least, within a factor of two of
 * the exact total (after the statistics were refreshed), and the same page as an exact count.
 */
async function expectEstimate(store: Collection, conditions: ListQuery['where'], cap: number): Promise<void> {
  const estimated = await store.list({ ...query, where: conditions, estimateAbove: cap });
  const counted = await store.list({ ...query, where: conditions, count: true });
  const total = counted.total as number;
  expect(estimated.records).toStrictEqual(counted.records);
  expect(estimated.estimated).toBe(true);
  expect(estimated.total).toBeGreaterThan(cap);
  expect(estimated.total).toBeGreaterThanOrEqual(total / 2);
  expect(estimated.total).toBeLessThanOrEqual(total * 2);
}

/** `count: 'estimated'`: exact up to `estimateAbove`, past it an exact count or a marked estimate of the same query. */
export const countCases = storeGroup('list count estimated', {
  'counts exactly up to its threshold, as an exact count answers': async (store) => {
    await seed(store, library);
    const cases: [ListQuery['where'], number][] = [
      [[], 7],
      [[where('author', 'Austen')], 3],
      [[op('year', 'gte', 1900), where('available', true)], 2],
      [[where('author', 'Nobody')], 0],
    ];
    for (const [conditions, total] of cases) {
      for (const estimateAbove of [7, 100, undefined]) {
        const listed = await store.list({ ...query, where: conditions, ...(estimateAbove ? { estimateAbove } : {}) });
        const counted: ListResult = await store.list({ ...query, where: conditions, count: true });
        expect(listed).toStrictEqual(counted);
        expect(listed.total).toBe(total);
        expect(listed.estimated).toBeUndefined();
      }
    }
    // A page past the end and a keyset page count every match, as an exact count does.
    const past = await store.list({ ...query, offset: 50, estimateAbove: 7 });
    expect(past).toStrictEqual({ records: [], total: 7 });
    const after = await store.list({ ...query, order: orderBy('id'), after: [5], estimateAbove: 7 });
    expect(after.records.map((record) => record.id)).toStrictEqual([6, 7]);
    expect(after.total).toBe(7);
  },
  'past its threshold, counts exactly or estimates the same filtered query, marked': async (store, home) => {
    await seedMany(store);
    await home.analyze?.(home.schema);
    const cap = 20;
    const few = [where('author', 'Jemisin')];
    const small = await store.list({ ...query, where: few, estimateAbove: cap });
    expect(small.total).toBe(10);
    expect(small.estimated).toBeUndefined();
    for (const conditions of [
      [],
      [where('author', 'Le Guin')],
      [where('author', 'Butler')],
      [op('year', 'lt', 1991)],
    ]) {
      if (home.analyze) {
        await expectEstimate(store, conditions, cap);
        continue;
      }
      // A store without estimates answers exactly, as it would to `count: true`.
      const listed = await store.list({ ...query, where: conditions, estimateAbove: cap });
      expect(listed.estimated).toBeUndefined();
      expect(listed.total).toBe(await exact(store, conditions));
    }
    if (!home.analyze) return;
    // The estimate is of the filtered query, conditions ANDed: Butler's 100 books, not 410 or 300.
    const butler = await store.list({
      ...query,
      where: [where('author', 'Butler'), op('year', 'lt', 2000)],
      estimateAbove: cap,
    });
    expect(butler.estimated).toBe(true);
    expect(butler.total).toBeLessThanOrEqual(200);
    // Past the end, the total is the same estimate.
    const past = await store.list({ ...query, offset: 500, estimateAbove: cap });
    expect(past.records).toStrictEqual([]);
    expect(past.estimated).toBe(true);
    expect(past.total).toBeGreaterThanOrEqual(205);
  },
});
