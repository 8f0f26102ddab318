import { describe, expectTypeOf, it } from 'vitest';
import type { issues } from '../../../examples/tracker/src/resources.js';
import { type IdsFieldOf, type RelationName, type ResourceRecord, resourceClient } from '../src/index.js';

// A many-to-many relation (CONTRACT part 4, `labelIds`): the record holds the ids as an array
// (never null), writes may send them, `include: ['labels']` adds the label records, and
// `filter` goes through the relation as through a belongs-to. Every `@ts-expect-error` is a
// mistake the client's types must refuse.

const issueClient = resourceClient<typeof issues>({ baseUrl: '/api', name: 'issue' });

describe('a many-to-many relation in the typed client', () => {
  it('types the ids of the record, the relation name and what include adds', async () => {
    expectTypeOf<IdsFieldOf<typeof issues>>().toEqualTypeOf<'labelIds'>();
    expectTypeOf<ResourceRecord<typeof issues>['labelIds']>().toEqualTypeOf<number[]>();
    expectTypeOf<'labels'>().toExtend<RelationName<typeof issues>>();
    const issue = await issueClient.show(1, { include: ['labels'] });
    expectTypeOf(issue.labelIds).toEqualTypeOf<number[]>();
    expectTypeOf(issue.labels[0]?.name).toEqualTypeOf<string | undefined>();
    expectTypeOf(issue.labels[0]?.color).toEqualTypeOf<string | undefined>();
    const page = await issueClient.index({ filter: { 'labels.name': ['bug', 'ui'] }, include: ['labels'] });
    expectTypeOf(page.records[0]?.labels).toEqualTypeOf<typeof issue.labels | undefined>();
  });

  it('lets writes send the ids, and only ids', async () => {
    await issueClient.create({ projectId: 1, title: 'T', labelIds: [1, 2] });
    await issueClient.update(1, { labelIds: [] });
    // @ts-expect-error ids are numbers
    await issueClient.update(1, { labelIds: ['1'] });
    // @ts-expect-error no such relation
    await issueClient.show(1, { include: ['tags'] });
  });
});
