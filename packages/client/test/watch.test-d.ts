import 'reflect-metadata';
import { belongsTo, defineResource, type ServerSet } from '@resourcery/core';
import { IsIn, IsInt, IsString, IsUUID } from 'class-validator';
import { describe, expectTypeOf, it } from 'vitest';
import { type ResourceRecord, resourceClient, type Watch, type WatchEvent } from '../src/index.js';

// Checked by the compiler only: watch's events carry the records as show types them, its
// filters are the index's.

class Project {
  @IsString() name!: string;
}
class Issue {
  @IsUUID() id!: ServerSet<string>;
  @IsString() title!: string;
  @IsIn(['open', 'done']) status!: 'open' | 'done';
  @IsInt() projectId!: number;
}
const issues = defineResource({
  name: 'issue',
  model: Issue,
  live: true,
  relations: { project: belongsTo(Project, { foreignKey: 'projectId' }) },
});
const client = resourceClient<typeof issues>({ baseUrl: '/api', name: 'issue' });
type IssueRecord = ResourceRecord<typeof issues>;

describe('client.watch', () => {
  it('calls onEvent with the record as show answers it, and the record id on destroyed', () => {
    const watch = client.watch({}, (event) => {
      expectTypeOf(event).toEqualTypeOf<WatchEvent<IssueRecord, string>>();
      if (event.type === 'created' || event.type === 'updated') {
        expectTypeOf(event.record).toEqualTypeOf<IssueRecord>();
        expectTypeOf(event.record.status).toEqualTypeOf<'open' | 'done'>();
      } else if (event.type === 'destroyed') {
        expectTypeOf(event.id).toEqualTypeOf<string>();
        // @ts-expect-error a destroyed event carries no record
        void event.record;
      } else {
        expectTypeOf(event.type).toEqualTypeOf<'reset'>();
        expectTypeOf(event.eventId).toEqualTypeOf<string>();
      }
    });
    expectTypeOf(client.show('3f2504e0-4f89-11d3-9a0c-0305e82c3301')).resolves.toEqualTypeOf<IssueRecord>();
    expectTypeOf(watch).toEqualTypeOf<Watch>();
    expectTypeOf(watch.done).toEqualTypeOf<Promise<void>>();
    expectTypeOf(watch.lastEventId).toEqualTypeOf<string | undefined>();
  });

  it('takes the index filters (through relations too), q and archived, and nothing of paging', () => {
    const onEvent = () => {};
    client.watch({ filter: { status: ['open'], 'project.name': 'Web' }, q: 'login', archived: true }, onEvent);
    client.watch(undefined, onEvent, { lastEventId: '1-5', signal: AbortSignal.timeout(1000), maxDelay: 5000 });
    // @ts-expect-error not a field of the issue
    client.watch({ filter: { priority: 1 } }, onEvent);
    // @ts-expect-error not a value of status
    client.watch({ filter: { status: 'closed' } }, onEvent);
    // @ts-expect-error a stream has no pages
    client.watch({ page: 2 }, onEvent);
  });
});
