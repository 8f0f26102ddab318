// The query language of CONTRACT part 3 on the parsing side: operators checked against the
// attribute's type, relation filters, sparse fields, and tamper-checked cursors.
import 'reflect-metadata';
import { belongsTo, defineResource } from '@resourcery/core';
import { compiledResource } from '@resourcery/core/adapter';
import { IsDecimal, IsInt, IsOptional, IsString } from 'class-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../src/errors/http-error.js';
import { Keys } from '../src/http/keys.js';
import { parseIndexQuery } from '../src/query/parse-query.js';
import type { RelatedLookup } from '../src/query/resolve-filter.js';
import { resolveIndexQuery } from '../src/query/resolve-query.js';
import { decodeCursor, encodeCursor } from '../src/resource/cursor.js';
import type { Order } from '../src/store/store.js';

class Author {
  @IsString() name!: string;
  @IsOptional() @IsString() country?: string | null;
}
class Book {
  @IsString() title!: string;
  @IsOptional() @IsInt() year?: number | null;
  @IsOptional() @IsDecimal({ decimal_digits: '0,2' }) price?: string | null;
  @IsInt() authorId!: number;
}
const authors = compiledResource(defineResource({ name: 'author', model: Author }));
const books = compiledResource(
  defineResource({
    name: 'book',
    model: Book,
    relations: { author: belongsTo(Author, { foreignKey: 'authorId' }) },
    fields: { operators: { title: ['eq', 'prefix'] } },
  }),
);
const related: RelatedLookup = Object.assign(
  (name: string) =>
    name === 'author' ? { foreignKey: 'authorId', collection: 'authors', rules: authors.query } : undefined,
  { names: ['author'] },
);
const resolve = (query: string) => resolveIndexQuery(parseIndexQuery(query), books.query, related);
const refusal = (query: string) => {
  try {
    resolve(query);
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestError);
    return (error as BadRequestError).detail;
  }
  throw new Error(`${query} was accepted`);
};

describe('filter operators', () => {
  it('converts each operand to the attribute type and ANDs several operators on one attribute', () => {
    expect(resolve('filter[year][gte]=1950&filter[year][lt]=2000&filter[price][lte]=10').where).toEqual([
      { field: 'year', values: [1950], op: 'gte' },
      { field: 'year', values: [2000], op: 'lt' },
      { field: 'price', values: ['10.00'], op: 'lte' },
    ]);
    expect(resolve('filter[year][eq]=1937&filter[year][null]=false').where).toEqual([
      { field: 'year', values: [1937] },
      { field: 'year', values: [false], op: 'null' },
    ]);
    expect(resolve('filter[title][prefix]=The%20').where).toEqual([{ field: 'title', values: ['The '], op: 'prefix' }]);
  });

  it('answers 400 naming an unknown operator, or one the attribute does not take', () => {
    expect(refusal('filter[year][between]=1')).toMatch(/"between" is not an operator/);
    expect(refusal('filter[title][contains]=x')).toMatch(/"contains" does not apply to title .*it takes: eq, prefix/);
    expect(refusal('filter[authorId][null]=true')).toMatch(/"null" does not apply to authorId \(integer\)/);
    expect(refusal('filter[year][null]=yes')).toMatch(/must be true or false/);
    expect(refusal('filter[price][gt]=1.234')).toMatch(/decimal with at most 2 places/);
    expect(refusal('filter[year][gte]=1&filter[year][gte]=2')).toMatch(/given more than once/);
  });

  it('filters by a belongs-to relation as a semi-join, with the target rules', () => {
    expect(resolve('filter[author.country]=UK&filter[author.name][ne]=X').where).toEqual([
      {
        field: 'authorId',
        values: [],
        related: { collection: 'authors', where: [{ field: 'country', values: ['UK'] }] },
      },
      {
        field: 'authorId',
        values: [],
        related: { collection: 'authors', where: [{ field: 'name', values: ['X'], op: 'ne' }] },
      },
    ]);
    expect(refusal('filter[publisher.name]=X')).toMatch(/"publisher" is not a belongs-to relation .*relations: author/);
    expect(refusal('filter[author.age]=3')).toMatch(/"age" is not an attribute/);
  });

  it('checks fields= against what responses show', () => {
    expect(resolve('fields=title,year').fields).toEqual(['title', 'year']);
    expect(refusal('fields=title,secret')).toMatch(/fields: "secret"/);
  });
});

describe('cursors', () => {
  const keys = new Keys('test secret of 16+ characters');
  const order = [
    { field: 'year', direction: 'desc' as const },
    { field: 'id', direction: 'asc' as const },
  ];
  const binding = { resource: 'books', where: [{ field: 'title', values: ['Dune'] }], scope: [], order };
  const last = (year: unknown, id: number) => ({ id, year, title: 'Dune' });

  it('round-trip the position of the last record', async () => {
    const cursor = await encodeCursor(keys, binding, last(null, 7));
    expect(await decodeCursor(keys, binding, cursor)).toEqual({ values: [null, 7] });
  });

  it('carry nothing readable: the sort values are encrypted', async () => {
    const cursor = await encodeCursor(keys, binding, last(1999, 7));
    const bytes = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    expect(bytes).not.toContain('1999');
    expect(cursor).not.toContain(btoa('1999').slice(0, 4));
  });

  it('stay under 200 characters whatever the sort values, holding the id when the values are long', async () => {
    const long = { ...binding, order: [{ field: 'title', direction: 'asc' as const }, order[1] as Order] };
    for (const title of ['', 'Dune', '長'.repeat(4500), 'x'.repeat(100_000)]) {
      const cursor = await encodeCursor(keys, long, { id: 12, title });
      expect(cursor.length).toBeLessThan(200);
      const position = await decodeCursor(keys, long, cursor);
      expect(position).toEqual(title.length > 60 ? { anchor: 12 } : { values: [title, 12] });
    }
  });

  it('refuse a cursor of another query, resource, scope or key, or edited', async () => {
    const cursor = await encodeCursor(keys, binding, last(1999, 7));
    const refused = (promise: Promise<unknown>) =>
      expect(promise).rejects.toThrow(/not made by this server for this request/);
    await refused(decodeCursor(keys, { ...binding, where: [] }, cursor));
    await refused(decodeCursor(keys, { ...binding, resource: 'authors' }, cursor));
    await refused(decodeCursor(keys, { ...binding, scope: [{ field: 'ownerId', values: [2] }] }, cursor));
    await refused(decodeCursor(keys, { ...binding, order: [...order].reverse() }, cursor));
    await refused(decodeCursor(new Keys('another secret, 16+ chars'), binding, cursor));
    const flipped = `${cursor.slice(0, 20)}${cursor[20] === 'A' ? 'B' : 'A'}${cursor.slice(21)}`;
    await refused(decodeCursor(keys, binding, flipped));
  });

  it('answer any string a client sends with a 400, never another error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary' }), async (raw) => {
        await expect(decodeCursor(keys, binding, raw)).rejects.toThrow(BadRequestError);
      }),
    );
  });
});

describe('the default order', () => {
  it('applies even when the sort list leaves its attribute out', () => {
    const narrow = compiledResource(defineResource({ name: 'book', model: Book, fields: { sort: ['title'] } }));
    const query = resolveIndexQuery(parseIndexQuery(''), narrow.query);
    expect(query.order).toEqual([{ field: 'id', direction: 'desc' }]);
    expect(() => resolveIndexQuery(parseIndexQuery('sort=id'), narrow.query)).toThrow(BadRequestError);
  });
});
