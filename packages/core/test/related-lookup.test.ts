import { describe, expect, it } from 'vitest';
import type { Context } from '../src/resource/context.js';
import type { LinkedRelation } from '../src/resource/link.js';
import { relatedLookup } from '../src/resource/related.js';

// The lookup of the relations a filter may go through (`filter[author.name]`): its `names` is a
// plain data property, the same array for every request of a resource. An accessor defined on each
// request's function gave V8 a hidden class per request, kept until a full collection, whose getter
// held the request's context, its records and its answer, through every young-generation
// collection (docs/performance.md, "Tenth round").

const relations = new Map<string, LinkedRelation>([
  ['author', { name: 'author', kind: 'belongsTo' } as LinkedRelation],
  ['comments', { name: 'comments', kind: 'hasMany' } as LinkedRelation],
  ['tags', { name: 'tags', kind: 'manyToMany' } as LinkedRelation],
]);
const request = () => ({ mounted: { self: { relations } } }) as unknown as Context;

describe('relatedLookup', () => {
  it('names the belongs-to and many-to-many relations in a data property shared by every request', () => {
    const [first, second] = [relatedLookup(request()), relatedLookup(request())];
    expect(first?.names).toEqual(['author', 'tags']);
    const property = Object.getOwnPropertyDescriptor(first, 'names');
    expect(property?.get).toBeUndefined();
    expect(property?.value).toBe(second?.names);
    expect(first?.('comments')).toBeUndefined();
  });
});
