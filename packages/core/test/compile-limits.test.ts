import 'reflect-metadata';
import { IsInt, IsString, Length, MaxLength } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/errors/http-error.js';
import { parseIndexQuery } from '../src/query/parse-query.js';
import { compiledResource, defineResource } from '../src/resource/define-resource.js';

class Note {
  @IsString() @Length(1, 200) title!: string;
  @IsString() @MaxLength(1000) body!: string;
  @IsString() free!: string;
  @IsInt() year!: number;
}

const limitsOf = (options: Partial<Parameters<typeof defineResource<Note>>[0]> = {}) =>
  compiledResource(defineResource<Note>({ name: 'note', model: Note, ...options })).limits;

describe("a resource's query-string limit", () => {
  it('has room for any value of its longest filterable string: 12 characters per character', () => {
    expect(limitsOf().queryLength).toBe(4096 + 12 * 1000);
    expect(limitsOf({ fields: { filter: ['title', 'year'] } }).queryLength).toBe(4096 + 12 * 200);
    expect(limitsOf({ fields: { filter: ['free', 'year'] } }).queryLength).toBe(4096);
    expect(limitsOf({ fields: { filter: ['title'] }, limits: { queryLength: 100 } }).queryLength).toBe(2500);
  });

  it('accepts a filter on the longest value a body may hold, percent-encoded, with the other parameters', () => {
    const { limits } = compiledResource(defineResource<Note>({ name: 'note', model: Note }));
    const value = encodeURIComponent('😀'.repeat(1000));
    expect(() => parseIndexQuery(`filter[body][]=${value}&sort=-title,id&page=2&per_page=100`, limits)).not.toThrow();
    const over = `filter[body]=${value}&q=${'x'.repeat(limits.queryLength - value.length - 15)}`;
    expect(over.length).toBe(limits.queryLength + 1);
    expect(() => parseIndexQuery(over, limits)).toThrow(HttpError);
  });
});
