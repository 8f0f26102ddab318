// The query language of CONTRACT part 3 on the parsing side: operators checked against the
// attribute's type, relation filters, sparse fields, and tamper-checked cursors.
import 'reflect-metadata';
import { belongsTo, defineResource } from '@resourcery/core';
import { compiledResource } from '@resourcery/core/adapter';
import { IsDecimal, IsInt, IsOptional, IsString } from 'class-validator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../src/errors/http-error.js';
import { parseIndexQuery } from '../src/query/parse-query.js';
import type { RelatedLookup } from '../src/query/resolve-filter.js';
import { resolveIndexQuery } from '../src/query/resolve-query.js';
import { cursorKey, decodeCursor, encodeCursor } from '../src/resource/cursor.js';

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
  const key = cursorKey('test secret');
  const order = [
    { field: 'year', direction: 'desc' as const },
    { field: 'id', direction: 'asc' as const },
  ];
  const where = [{ field: 'title', values: ['Dune'] }];

  it('round-trip the position of the last record', () => {
    const cursor = encodeCursor(key, where, order, [null, 7]);
    expect(decodeCursor(key, where, order, cursor)).toEqual([null, 7]);
  });

  it('refuse a cursor of another query, another key, or edited', () => {
    const cursor = encodeCursor(key, where, order, [1999, 7]);
    expect(() => decodeCursor(key, [], order, cursor)).toThrow(/another query/);
    expect(() => decodeCursor(cursorKey('other'), where, order, cursor)).toThrow(/not one this server made/);
    const [payload, signature] = cursor.split('.');
    const forged = JSON.stringify({ v: 1, q: 'x', k: [0, 0] });
    expect(() => decodeCursor(key, where, order, `${btoa(forged)}.${signature}`)).toThrow(BadRequestError);
    expect(() => decodeCursor(key, where, order, `${payload}.${signature}x`)).toThrow(BadRequestError);
  });

  it('answer any string a client sends with a 400, never another error', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (raw) => {
        expect(() => decodeCursor(key, where, order, raw)).toThrow(BadRequestError);
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
