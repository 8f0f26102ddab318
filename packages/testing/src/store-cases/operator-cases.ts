import { type Collection, type Condition, compareCodePoints } from '@resourcery/core/store';
import { expect } from 'vitest';
import { ids, library, list, op, seed, storeGroup, where } from './fixtures.js';

/** The ids of the records matching every condition, in id order. */
async function found(store: Collection, ...conditions: Condition[]) {
  return ids(await list(store, undefined, conditions));
}

// Strings around the places where orders and patterns go wrong: case, LIKE's wildcards and the
// usual escape characters, trailing spaces (PAD SPACE collations), U+FFFD and U+E000 against an
// emoji (UTF-16 order is not code point order), the last code point before the surrogates and
// the last code point of all (the end of a prefix range).
const STRINGS = [
  'a',
  'A',
  'ab',
  'aB',
  'a ',
  'a%b',
  'a_b',
  'axb',
  'AXB',
  'a!b',
  'a\\b',
  '100%',
  '100_',
  '1000',
  '%',
  '_',
  '!',
  '\\',
  'é',
  '\uFFFD',
  '\uE000',
  '😀',
  '😀x',
  'x😀',
  'z\uD7FF',
  'z\uE000',
  'z\u{10FFFF}',
  'z\u{10FFFF}a',
  '{',
];

const PIVOTS = ['a', 'a ', 'A', '\uFFFD', '😀', 'z\uD7FF', '', '~'];
const NEEDLES = [
  'a',
  '%',
  '_',
  '!',
  '\\',
  'a%',
  'a_',
  '0%',
  'x',
  'X',
  'b',
  '😀',
  '\uFFFD',
  'z\u{10FFFF}',
  'z\uD7FF',
  '',
];

/** Seeds {@link STRINGS} into both string columns (a sized VARCHAR and an unbounded TEXT). */
async function seedStrings(store: Collection) {
  await seed(
    store,
    STRINGS.map((name) => ({ name, author: name })),
  );
}

/** The ids (1-based, as seeded) of the strings that pass `test`. */
function expected(test: (value: string) => boolean): number[] {
  return STRINGS.flatMap((value, index) => (test(value) ? [index + 1] : []));
}

/** Filter operators (CONTRACT part 3) on the suite's scalar types. */
export const operatorCases = storeGroup('list operators', {
  'compares integers and numbers; a comparison never matches null': async (store) => {
    await seed(store, library);
    expect(await found(store, op('year', 'gt', 1965))).toEqual([5, 6]);
    expect(await found(store, op('year', 'gte', 1965))).toEqual([1, 5, 6]);
    expect(await found(store, op('year', 'lt', 1817))).toEqual([2]);
    expect(await found(store, op('year', 'lte', 1817))).toEqual([2, 3]);
    expect(await found(store, op('year', 'ne', 1965))).toEqual([2, 3, 5, 6]);
    expect(await found(store, op('price', 'gt', 7.25))).toEqual([1, 6]);
    expect(await found(store, op('price', 'gte', 7.25))).toEqual([1, 4, 5, 6]);
    expect(await found(store, op('price', 'lt', 0))).toEqual([7]);
    expect(await found(store, op('price', 'lte', 4.5))).toEqual([2, 7]);
    expect(await found(store, op('price', 'ne', 7.25))).toEqual([1, 2, 6, 7]);
    expect(await found(store, op('id', 'gt', 5))).toEqual([6, 7]);
    expect(await found(store, op('id', 'ne', 5))).toEqual([1, 2, 3, 4, 6, 7]);
  },
  'null finds the records without a value (true) or with one (false)': async (store) => {
    await seed(store, library);
    expect(await found(store, op('year', 'null', true))).toEqual([4, 7]);
    expect(await found(store, op('year', 'null', false))).toEqual([1, 2, 3, 5, 6]);
    expect(await found(store, op('price', 'null', true))).toEqual([3]);
    expect(await found(store, op('available', 'null', true))).toEqual([4, 7]);
    expect(await found(store, op('available', 'null', false))).toEqual([1, 2, 3, 5, 6]);
  },
  'booleans take eq and ne; ne leaves out null': async (store) => {
    await seed(store, library);
    expect(await found(store, op('available', 'ne', true))).toEqual([2, 5]);
    expect(await found(store, op('available', 'ne', false))).toEqual([1, 3, 6]);
    expect(await found(store, where('available', true), op('available', 'ne', false))).toEqual([1, 3, 6]);
  },
  'several operators on one field are ANDed, and with other conditions': async (store) => {
    await seed(store, library);
    expect(await found(store, op('year', 'gte', 1800), op('year', 'lt', 1970))).toEqual([1, 2, 3]);
    expect(await found(store, op('year', 'gte', 1800), op('year', 'lt', 1970), where('author', 'Austen'))).toEqual([
      2, 3,
    ]);
    expect(await found(store, op('year', 'gt', 1965), op('year', 'lt', 1965))).toEqual([]);
    expect(await found(store, op('price', 'ne', 7.25), op('year', 'null', true))).toEqual([7]);
    expect(await found(store, op('author', 'prefix', 'D'), op('name', 'contains', 'i'))).toEqual([4, 5]);
    const page = await store.list({
      where: [op('year', 'null', false), op('price', 'gt', 5)],
      order: [{ field: 'id', direction: 'desc' }],
      limit: 1,
      offset: 1,
      count: true,
    });
    expect([ids(page.records), page.total]).toEqual([[5], 3]);
  },
  'compares strings by code point, case-sensitively, in both kinds of column': async (store) => {
    await seedStrings(store);
    for (const field of ['name', 'author']) {
      for (const pivot of PIVOTS) {
        const order = (value: string) => compareCodePoints(value, pivot);
        expect(await found(store, op(field, 'gt', pivot)), `${field} gt ${pivot}`).toEqual(
          expected((v) => order(v) > 0),
        );
        expect(await found(store, op(field, 'gte', pivot))).toEqual(expected((v) => order(v) >= 0));
        expect(await found(store, op(field, 'lt', pivot))).toEqual(expected((v) => order(v) < 0));
        expect(await found(store, op(field, 'lte', pivot))).toEqual(expected((v) => order(v) <= 0));
        expect(await found(store, op(field, 'ne', pivot))).toEqual(expected((v) => v !== pivot));
      }
    }
  },
  'prefix and contains are literal and case-sensitive: % _ ! and \\ match themselves': async (store) => {
    await seedStrings(store);
    for (const field of ['name', 'author']) {
      for (const needle of NEEDLES) {
        expect(await found(store, op(field, 'prefix', needle)), `${field} prefix ${needle}`).toEqual(
          expected((value) => value.startsWith(needle)),
        );
        expect(await found(store, op(field, 'contains', needle)), `${field} contains ${needle}`).toEqual(
          expected((value) => value.includes(needle)),
        );
      }
    }
    const names = async (condition: Condition) =>
      (await list(store, undefined, [condition])).map((record) => record.name);
    expect(await names(op('name', 'prefix', 'a_'))).toEqual(['a_b']);
    expect(await names(op('name', 'contains', '%'))).toEqual(['a%b', '100%', '%']);
    expect(await names(op('name', 'prefix', '100'))).toEqual(['100%', '100_', '1000']);
    expect(await names(op('name', 'prefix', '100%'))).toEqual(['100%']);
    expect(await names(op('name', 'contains', 'X'))).toEqual(['AXB']);
    expect(await names(op('name', 'prefix', 'z\uD7FF'))).toEqual(['z\uD7FF']);
    expect(await names(op('name', 'prefix', 'z\u{10FFFF}'))).toEqual(['z\u{10FFFF}', 'z\u{10FFFF}a']);
  },
  'prefix and contains combine with ranges on the same column': async (store) => {
    await seedStrings(store);
    expect(await found(store, op('name', 'prefix', 'a'), op('name', 'gt', 'a%'), op('name', 'ne', 'ab'))).toEqual(
      expected((v) => v.startsWith('a') && compareCodePoints(v, 'a%') > 0 && v !== 'ab'),
    );
    expect(await found(store, op('author', 'contains', 'b'), op('author', 'lt', 'a_'))).toEqual(
      expected((v) => v.includes('b') && compareCodePoints(v, 'a_') < 0),
    );
  },
});
