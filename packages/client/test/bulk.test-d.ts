import 'reflect-metadata';
import { defineResource, type ServerSet } from '@resourcery/core';
import { IsIn, IsInt, IsOptional, IsString, Length } from 'class-validator';
import { describe, expectTypeOf, it } from 'vitest';
import { type ResourceRecord, resourceClient, type UpdateEntry } from '../src/index.js';

// Checked by the compiler only: the bulk writes and upserts take what a create and an update
// take, typed from the declaration; every `@ts-expect-error` is a mistake the types must refuse.

class Task {
  @IsInt() orgId!: ServerSet<number>;
  @IsString() @Length(1, 100) title!: string;
  @IsIn(['todo', 'done']) state!: 'todo' | 'done';
  @IsOptional() @IsString() code?: string | null;
}
const tasks = defineResource({ name: 'task', model: Task, bulk: true, defaults: { state: 'todo' } });
const client = resourceClient<typeof tasks>({ baseUrl: '/api', name: 'task' });
type Record = ResourceRecord<typeof tasks>;

describe('the bulk writes', () => {
  it('create from create bodies, defaults left out, and answer the records', async () => {
    expectTypeOf(await client.createMany([{ title: 'A' }, { title: 'B', state: 'done' }])).toEqualTypeOf<Record[]>();
    // @ts-expect-error title is required
    await client.createMany([{ state: 'done' }]);
    // @ts-expect-error orgId is set by the server
    await client.createMany([{ title: 'A', orgId: 1 }]);
  });

  it('update entries of an id, an optional _etag and the fields to change', async () => {
    expectTypeOf(
      await client.updateMany([
        { id: 1, state: 'done' },
        { id: 2, _etag: '"x"' },
      ]),
    ).toEqualTypeOf<Record[]>();
    expectTypeOf<UpdateEntry<typeof tasks>['_etag']>().toEqualTypeOf<string | undefined>();
    // @ts-expect-error every entry names its record
    await client.updateMany([{ state: 'done' }]);
    // @ts-expect-error not a state
    await client.updateMany([{ id: 1, state: 'closed' }]);
    // @ts-expect-error the id of a task is a number
    await client.updateMany([{ id: '1', title: 'A' }]);
  });

  it('destroy by ids', async () => {
    expectTypeOf(await client.destroyMany([1, 2])).toEqualTypeOf<void>();
    // @ts-expect-error the ids of tasks are numbers
    await client.destroyMany(['1']);
  });

  it('upsert by an attribute the record holds a value of', async () => {
    expectTypeOf(await client.upsert('title', { title: 'A' })).toEqualTypeOf<Record>();
    expectTypeOf(await client.upsert('code', { title: 'A', code: 'T-1' })).toEqualTypeOf<Record>();
    expectTypeOf(await client.upsertMany('code', [{ title: 'A', code: 'T-1' }])).toEqualTypeOf<Record[]>();
    // @ts-expect-error the value to upsert by must be given
    await client.upsert('code', { title: 'A' });
    // @ts-expect-error nor may it be null
    await client.upsert('code', { title: 'A', code: null });
    // @ts-expect-error not an attribute a client writes
    await client.upsert('orgId', { title: 'A' });
  });
});
