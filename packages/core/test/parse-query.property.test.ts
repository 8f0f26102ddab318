import { HttpError } from '@resourcery/core';
import { compiledResource } from '@resourcery/core/adapter';
import { bookResource } from '@resourcery/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paginationHeaders } from '../src/http/links.js';
import { parseIndexQuery, type RawIndexQuery } from '../src/query/parse-query.js';
import { type IndexQuery, resolveIndexQuery } from '../src/query/resolve-query.js';

const rules = compiledResource(bookResource()).query;

/** Parses and resolves like the index action does; answers the query or the HttpError thrown. */
function run(rawQuery: string): IndexQuery | HttpError {
  try {
    return resolveIndexQuery(parseIndexQuery(rawQuery), rules);
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

// Pieces of real and malformed queries, so that random strings often come close to valid ones.
const TOKENS = [
  ...['filter', 'sort', 'page', 'per_page', 'name', 'author', 'id', '__proto__', 'constructor', 'prototype'],
  ...['toString', 'hasOwnProperty', '[', ']', '[]', '=', '&', '-', ',', ';', '+', ' ', '"', "'", '#'],
  ...['%', '%5B', '%5D', '%2', '%zz', '%E0%A4%A', '%C3%A9', '%00', '%FF', '\uD800', '\uDC00', '😀', 'é'],
  ...['0', '1', '7', '25', '100', '101', '-1', '1.5', '1e3', '0x1', 'abc', '99999999999999999999', 'NaN'],
];
const anyQuery = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: fc.constantFrom(...TOKENS), maxLength: 30 }),
  fc.string({ unit: fc.oneof(fc.constantFrom(...TOKENS), fc.string({ unit: 'binary', maxLength: 3 })), maxLength: 30 }),
);

describe('parseIndexQuery + resolveIndexQuery on any string', () => {
  it('answer a query or throw an HttpError 400, never anything else', () => {
    fc.assert(
      fc.property(anyQuery, (rawQuery) => {
        const result = run(rawQuery);
        if (result instanceof HttpError) {
          expect(result.status).toBe(400);
          expect(result.detail.length).toBeLessThan(1000);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('answer only checked queries: known attributes, converted values, 1 <= per_page <= 100, id ordered', () => {
    fc.assert(
      fc.property(anyQuery, (rawQuery) => {
        const result = run(rawQuery);
        if (result instanceof HttpError) return;
        for (const condition of result.where) {
          expect(['id', 'name', 'author']).toContain(condition.field);
          for (const value of condition.values) {
            if (condition.field === 'id') expect(Number.isSafeInteger(value)).toBe(true);
            else expect(value).toBeTypeOf('string');
          }
        }
        expect(result.order.map((order) => order.field)).toContain('id');
        expect(new Set(result.order.map((order) => order.field)).size).toBe(result.order.length);
        for (const { field } of result.order) expect(['id', 'name', 'author']).toContain(field);
        expect(Number.isSafeInteger(result.page) && result.page >= 1).toBe(true);
        expect(Number.isSafeInteger(result.perPage) && result.perPage >= 1 && result.perPage <= 100).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

interface Model {
  filters: { attribute: 'id' | 'name' | 'author'; values: string[]; array: boolean }[];
  sort?: { attribute: 'id' | 'name' | 'author'; descending: boolean }[];
  page?: number;
  perPage?: number;
  /** Ignored parameters mixed in, which must change nothing. */
  noise: [string, string][];
  /** How keys are written: brackets left as typed, percent-encoded, or every character encoded. */
  keys: 'readable' | 'encoded' | 'all-encoded';
  /** Whether spaces in values are written "+" or "%20". */
  plusForSpace: boolean;
}

const attribute = fc.constantFrom('id' as const, 'name' as const, 'author' as const);
const valueFor = (name: 'id' | 'name' | 'author') =>
  // Strings that every store can hold: NUL is refused (400) like in bodies.
  name === 'id'
    ? fc.maxSafeInteger().map(String)
    : fc.string({ unit: 'binary', maxLength: 20 }).filter((value) => !value.includes('\u0000'));
const filter = attribute.chain((name) =>
  fc
    .boolean()
    .chain((array) =>
      fc
        .array(valueFor(name), { minLength: 1, maxLength: array ? 4 : 1 })
        .map((values) => ({ attribute: name, values, array })),
    ),
);
const model: fc.Arbitrary<Model> = fc.record(
  {
    filters: fc.uniqueArray(filter, { selector: (entry) => entry.attribute, maxLength: 3 }),
    sort: fc.uniqueArray(fc.record({ attribute, descending: fc.boolean() }), {
      selector: (entry) => entry.attribute,
      minLength: 1,
      maxLength: 3,
    }),
    page: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    perPage: fc.integer({ min: 1, max: 100 }),
    noise: fc.array(fc.tuple(fc.constantFrom('utm_source', 'expand', 'query', 'fields[book]'), fc.string()), {
      maxLength: 2,
    }),
    keys: fc.constantFrom('readable' as const, 'encoded' as const, 'all-encoded' as const),
    plusForSpace: fc.boolean(),
  },
  { requiredKeys: ['filters', 'noise', 'keys', 'plusForSpace'] },
);

/** Writes a model as a query string, as different clients would. */
function serialize(query: Model): string {
  const encode = (text: string) => {
    const encoded = encodeURIComponent(text);
    return query.plusForSpace ? encoded.replace(/%20/g, '+') : encoded;
  };
  const key = (text: string) => {
    if (query.keys === 'encoded') return encode(text);
    if (query.keys === 'readable') return encode(text).replace(/%5B/g, '[').replace(/%5D/g, ']');
    return Array.from(new TextEncoder().encode(text), (byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  };
  const pairs: string[] = [];
  for (const [name, value] of query.noise) pairs.push(`${key(name)}=${encode(value)}`);
  for (const { attribute: name, values, array } of query.filters) {
    for (const value of values) pairs.push(`${key(`filter[${name}]${array ? '[]' : ''}`)}=${encode(value)}`);
  }
  if (query.sort)
    pairs.push(
      `${key('sort')}=${query.sort.map((entry) => `${entry.descending ? '-' : ''}${entry.attribute}`).join(',')}`,
    );
  if (query.page !== undefined) pairs.push(`${key('page')}=${query.page}`);
  if (query.perPage !== undefined) pairs.push(`${key('per_page')}=${query.perPage}`);
  return pairs.join('&');
}

describe('valid queries round-trip', () => {
  it('parseIndexQuery reads back what was written', () => {
    fc.assert(
      fc.property(model, (query) => {
        const parsed: RawIndexQuery = parseIndexQuery(serialize(query));
        expect(parsed.filters).toEqual(query.filters);
        expect(parsed.sort).toEqual(query.sort);
        expect(parsed.page).toBe(query.page);
        expect(parsed.perPage).toBe(query.perPage);
      }),
      { numRuns: 1000 },
    );
  });

  it('resolveIndexQuery converts values, appends the id tie-breaker and applies the defaults', () => {
    fc.assert(
      fc.property(model, (query) => {
        const resolved = run(serialize(query));
        if (resolved instanceof HttpError) throw resolved;
        expect(resolved.where).toEqual(
          query.filters.map(({ attribute: name, values }) => ({
            field: name,
            values: values.map((value) => (name === 'id' ? Number(value) : value)),
          })),
        );
        const order = (query.sort ?? [{ attribute: 'id', descending: true }]).map((entry) => ({
          field: entry.attribute,
          direction: entry.descending ? 'desc' : 'asc',
        }));
        if (!order.some((entry) => entry.field === 'id')) order.push({ field: 'id', direction: 'asc' });
        expect(resolved.order).toEqual(order);
        expect(resolved.page).toBe(query.page ?? 1);
        expect(resolved.perPage).toBe(query.perPage ?? 25);
      }),
      { numRuns: 1000 },
    );
  });

  it('every Link URL parses back to the same query with only the page changed', () => {
    fc.assert(
      fc.property(model, fc.nat({ max: 10_000 }), (query, total) => {
        const rawQuery = serialize(query);
        const resolved = run(rawQuery);
        if (resolved instanceof HttpError) throw resolved;
        const headers = paginationHeaders(
          { basePath: '/api', path: '/books', rawQuery },
          resolved.page,
          resolved.perPage,
          total,
        );
        const last = Math.max(1, Math.ceil(total / resolved.perPage));
        for (const match of (headers.Link as string).matchAll(/<\/api\/books\?([^>]*)>; rel="(\w+)"/g)) {
          const [, linkQuery = '', rel] = match;
          const linked = run(linkQuery);
          if (linked instanceof HttpError) throw linked;
          expect({ ...linked, page: 0 }).toEqual({ ...resolved, page: 0 });
          if (rel === 'first') expect(linked.page).toBe(1);
          if (rel === 'last') expect(linked.page).toBe(last);
          if (rel === 'next') expect(linked.page).toBe(resolved.page + 1);
          if (rel === 'prev') expect(linked.page).toBe(Math.min(resolved.page - 1, last));
        }
        expect(headers['X-Total-Count']).toBe(String(total));
      }),
      { numRuns: 1000 },
    );
  });
});
