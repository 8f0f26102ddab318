import fc from 'fast-check';
import { type FilterPlan, filtersOf, type ResourceKey } from './filters.js';

// Random queries of the access property: filters (relation filters, label filters too; see
// filters.ts), `q=` search, sort, fields=, include=, pages, archived=true, on every resource; and
// shows of ids of both organizations. A query names `email` only where its `hidden` flag says so.

export type { FilterPlan, Json, Lookup, ResourceKey } from './filters.js';
export { testOf } from './filters.js';

/**
 * What a relation of the tracker joins: `one` (belongs-to, by this record's key), `many`
 * (has-many, by theirs) or `set` (many-to-many, by the ids this record holds in `key`).
 */
export const RELATIONS: Record<
  ResourceKey,
  Record<string, { kind: 'one' | 'many' | 'set'; target: ResourceKey; key: string }>
> = {
  users: { issues: { kind: 'many', target: 'issues', key: 'assigneeId' } },
  projects: { issues: { kind: 'many', target: 'issues', key: 'projectId' } },
  labels: {},
  issues: {
    project: { kind: 'one', target: 'projects', key: 'projectId' },
    assignee: { kind: 'one', target: 'users', key: 'assigneeId' },
    comments: { kind: 'many', target: 'comments', key: 'issueId' },
    labels: { kind: 'set', target: 'labels', key: 'labelIds' },
  },
  comments: { issue: { kind: 'one', target: 'issues', key: 'issueId' } },
};

/** `sort`, `fields` and `include` values of each resource; those naming `email` are hidden. */
const SORTS: Record<ResourceKey, string[]> = {
  users: ['name', '-name', '-id', 'role,name', 'email', '-email'],
  projects: ['name', '-name'],
  labels: ['name', '-name', 'color,-id'],
  issues: ['title', '-priority', 'priority,-id'],
  comments: ['body', '-createdAt'],
};
const FIELDS: Record<ResourceKey, string[]> = {
  users: ['name', 'name,role', 'email', 'role,email'],
  projects: ['name'],
  labels: ['name', 'name,color'],
  issues: ['title', 'title,priority', 'assigneeId', 'labelIds', 'title,labelIds'],
  comments: ['body', 'issueId,body'],
};
const INCLUDES: Record<ResourceKey, string[]> = {
  users: ['issues'],
  projects: ['issues'],
  labels: [],
  issues: ['project', 'assignee', 'comments', 'project,assignee', 'labels', 'labels,assignee'],
  comments: ['issue'],
};

export interface QueryPlan {
  readonly resource: ResourceKey;
  /** A show of the record at this index of the seeded ids (both organizations), or one that exists nowhere. */
  readonly show?: number;
  readonly filters: readonly FilterPlan[];
  readonly sort?: string;
  readonly fields?: string;
  readonly include?: string;
  readonly page?: number;
  readonly perPage?: number;
  readonly archived: boolean;
}

const optional = <T>(values: readonly T[]) =>
  values.length ? fc.option(fc.constantFrom(...values), { nil: undefined }) : fc.constant(undefined);

const queryOf = (resource: ResourceKey): fc.Arbitrary<QueryPlan> =>
  fc.record({
    resource: fc.constant(resource),
    show: fc.option(fc.nat(30), { nil: undefined, freq: 3 }),
    filters: filtersOf(resource),
    sort: optional(SORTS[resource]),
    fields: optional(FIELDS[resource]),
    include: optional(INCLUDES[resource]),
    page: resource === 'comments' ? fc.constant(undefined) : optional([1, 2, 3]),
    perPage: optional([1, 2, 5, 100]),
    archived: resource === 'issues' ? fc.boolean() : fc.constant(false),
  });

export const queryPlan: fc.Arbitrary<QueryPlan> = fc.oneof(
  queryOf('users'),
  queryOf('projects'),
  queryOf('labels'),
  queryOf('issues'),
  queryOf('comments'),
);

/** Whether a query names a field this caller may not read (`email`, for all but admins). */
export function namesHidden(query: QueryPlan): boolean {
  const index = query.show === undefined;
  const named = [index ? (query.sort ?? '') : '', query.fields ?? ''].join(',').split(',');
  return (
    (index && query.filters.some((each) => each.hidden)) || named.some((name) => name.replace(/^-/, '') === 'email')
  );
}
