import 'reflect-metadata';
import { defineResource } from '@resourcery/core';
import { IsDecimal, IsIn, IsInt, IsOptional, IsString } from 'class-validator';
import { describe, expectTypeOf, it } from 'vitest';
import { resourceClient, type StatsEntry } from '../src/index.js';

// Checked by the compiler only: statistics are typed by the attributes a call asks for.

class Issue {
  @IsString() title!: string;
  @IsIn(['open', 'done']) status!: 'open' | 'done';
  @IsInt() priority!: number;
  @IsOptional() @IsDecimal() estimate?: string | null;
}
const issues = defineResource({ name: 'issue', model: Issue, stats: true });
const client = resourceClient<typeof issues>({ baseUrl: '/api', name: 'issue' });

describe('client.stats', () => {
  it('types each entry by group, sum, min and max', async () => {
    const entries = await client.stats({ group: ['status'], sum: ['estimate', 'priority'] });
    expectTypeOf(entries).toEqualTypeOf<StatsEntry<Issue, 'status', 'estimate' | 'priority', never, never>[]>();
    const [first] = entries;
    if (!first) return;
    expectTypeOf(first.status).toEqualTypeOf<'open' | 'done' | null>();
    expectTypeOf(first.count).toEqualTypeOf<number>();
    expectTypeOf(first.sum.estimate).toEqualTypeOf<string | null>();
    expectTypeOf(first.sum.priority).toEqualTypeOf<number | null>();
    // @ts-expect-error no min was asked for
    void first.min;
    // @ts-expect-error title is not a group of this call
    void first.title;
    const [all] = await client.stats();
    expectTypeOf(all?.count).toEqualTypeOf<number | undefined>();
  });

  it('takes the index filters, q and only attribute names', async () => {
    await client.stats({ filter: { priority: { gte: 2 } }, archived: true, max: ['priority'] });
    await client.stats({ q: 'login crash', group: ['status'] });
    // @ts-expect-error q is text
    await client.stats({ q: ['login'] });
    // @ts-expect-error not an attribute
    await client.stats({ group: ['nope'] });
  });
});
