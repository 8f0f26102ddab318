// Type-level checks of the types openapi-typescript generates from the tracker's
// /api/openapi.json: generated-clients.test.ts typechecks this file with tsc next to the generated
// `schema.ts` (nothing here runs). The repository's tsconfig leaves it out, as it does calls.ts.
import { expectTypeOf } from 'vitest';
import type { components, operations, paths } from './schema.js';

type Schemas = components['schemas'];
type Status = 'open' | 'in_progress' | 'done';

// An issue holds its labels' ids, and a status among the listed ones.
expectTypeOf<Schemas['Issue']['labelIds']>().toEqualTypeOf<number[]>();
expectTypeOf<Schemas['Issue']['status']>().toEqualTypeOf<Status>();
// The bodies: labelIds optional on both, status optional (it has a default) and listed.
expectTypeOf<Schemas['IssueCreateInput']['labelIds']>().toEqualTypeOf<number[] | undefined>();
expectTypeOf<Schemas['IssueCreateInput']['status']>().toEqualTypeOf<Status | undefined>();
expectTypeOf<Schemas['IssueUpdateInput']['status']>().toEqualTypeOf<Status | undefined>();
// The one value of archivedAt an update may send: null (with ?archived=true), which restores.
expectTypeOf<Schemas['IssueUpdateInput']['archivedAt']>().toEqualTypeOf<null | undefined>();
expectTypeOf<NonNullable<paths['/issues/{id}']['patch']['parameters']['query']>['archived']>().toEqualTypeOf<
  boolean | undefined
>();

// The index takes q, the label filters and include=labels, whose records carry `labels`.
type IndexQuery = NonNullable<paths['/issues']['get']['parameters']['query']>;
expectTypeOf<IndexQuery['q']>().toEqualTypeOf<string | undefined>();
expectTypeOf<IndexQuery['filter[labels.name]']>().toEqualTypeOf<string | undefined>();
expectTypeOf<IndexQuery['filter[labels.name][]']>().toEqualTypeOf<string[] | undefined>();
expectTypeOf<'labels'>().toExtend<NonNullable<IndexQuery['include']>[number]>();
type Listed = paths['/issues']['get']['responses'][200]['content']['application/json']['issues'][number];
expectTypeOf<Extract<Listed, { labels?: unknown }>['labels']>().toEqualTypeOf<Schemas['Label'][] | undefined>();

// The statistics operation: the index's filters and q, group and sum; entries with a count, the
// group's listed values and exact sums.
type Stats = operations['statsIssues'];
type StatsQuery = NonNullable<Stats['parameters']['query']>;
expectTypeOf<StatsQuery['q']>().toEqualTypeOf<string | undefined>();
expectTypeOf<StatsQuery['group']>().toEqualTypeOf<string | undefined>();
expectTypeOf<StatsQuery['sum']>().toEqualTypeOf<string | undefined>();
expectTypeOf<StatsQuery['archived']>().toEqualTypeOf<boolean | undefined>();
expectTypeOf<StatsQuery['filter[labels.name]']>().toEqualTypeOf<string | undefined>();
type Entry = Stats['responses'][200]['content']['application/json']['stats'][number];
expectTypeOf<Entry['count']>().toEqualTypeOf<number>();
expectTypeOf<Entry['status']>().toEqualTypeOf<Status | null | undefined>();
expectTypeOf<NonNullable<Entry['sum']>['estimate']>().toEqualTypeOf<string | null | undefined>();

// Bulk writes on the issues: the list forms of a create, the entries of an update (an id, an
// optional `_etag`, the fields), the ids of a destroy; `upsert` on the labels' create.
expectTypeOf<Schemas['IssueCreateList']['issues']>().toEqualTypeOf<Schemas['IssueCreateInput'][]>();
expectTypeOf<Schemas['IssueUpdateEntry']['id']>().toEqualTypeOf<number>();
expectTypeOf<Schemas['IssueUpdateEntry']['_etag']>().toEqualTypeOf<string | undefined>();
expectTypeOf<Schemas['IssueUpdateEntry']['status']>().toEqualTypeOf<Status | undefined>();
type Created = paths['/issues']['post']['responses'][200]['content']['application/json'];
expectTypeOf<Extract<Created, { issues: unknown }>>().toEqualTypeOf<Schemas['IssueList']>();
expectTypeOf<operations['destroyIssues']['parameters']['query']['filter[id][]']>().toEqualTypeOf<number[]>();
expectTypeOf<NonNullable<operations['createLabel']['parameters']['query']>['upsert']>().toEqualTypeOf<
  'name' | undefined
>();
