import fc from 'fast-check';
import { NAMES, PROJECT_NAMES, ROLES, STATUSES, TITLES } from './plan.js';

// Random queries of the access property: filters (relation filters too), sort, fields=,
// include=, pages, archived=true, on every resource; and shows of ids of both organizations.
// A query names `email` only where its `hidden` flag says so.

export type ResourceKey = 'users' | 'projects' | 'issues' | 'comments';
// biome-ignore lint/suspicious/noExplicitAny: records of any resource, read freely by the checks
export type Json = Record<string, any>;

/** What a relation of the tracker joins: `one` (belongs-to, by this record's key) or `many` (has-many, by theirs). */
export const RELATIONS: Record<
  ResourceKey,
  Record<string, { kind: 'one' | 'many'; target: ResourceKey; key: string }>
> = {
  users: { issues: { kind: 'many', target: 'issues', key: 'assigneeId' } },
  projects: { issues: { kind: 'many', target: 'issues', key: 'projectId' } },
  issues: {
    project: { kind: 'one', target: 'projects', key: 'projectId' },
    assignee: { kind: 'one', target: 'users', key: 'assigneeId' },
    comments: { kind: 'many', target: 'comments', key: 'issueId' },
  },
  comments: { issue: { kind: 'one', target: 'issues', key: 'issueId' } },
};

/** Looks a visible record up: the caller's own view of a resource. */
export type Lookup = (resource: ResourceKey, id: unknown) => Json | undefined;

/** One `filter[...]` parameter and how the reference evaluates it on a record. */
export interface FilterPlan {
  readonly param: string;
  readonly value: string;
  readonly hidden: boolean;
  /** The id (from the seeded ids) the value stands for, when `value` is `#id`. */
  readonly pick?: { resource: ResourceKey; index: number };
  readonly test: (record: Json, value: string, lookup: Lookup) => boolean;
}

const eq = (field: string) => (record: Json, value: string) => String(record[field]) === value;
const prefix = (field: string) => (record: Json, value: string) =>
  typeof record[field] === 'string' && record[field].startsWith(value);
/** A condition on the record a belongs-to relation names, as the caller sees it. */
const through =
  (resource: ResourceKey, key: string, test: (related: Json, value: string) => boolean) =>
  (record: Json, value: string, lookup: Lookup) => {
    const related = record[key] === null ? undefined : lookup(resource, record[key]);
    return related !== undefined && test(related, value);
  };

const filter = (param: string, values: readonly string[], test: FilterPlan['test'], hidden = false) =>
  fc.constantFrom(...values).map((value): FilterPlan => ({ param, value, hidden, test }));
const byId = (param: string, resource: ResourceKey, field: string) =>
  fc
    .nat(30)
    .map((index): FilterPlan => ({ param, value: '#id', hidden: false, pick: { resource, index }, test: eq(field) }));

const FILTERS: Record<ResourceKey, fc.Arbitrary<FilterPlan>[]> = {
  users: [
    filter('filter[name]', NAMES, eq('name')),
    filter('filter[name][prefix]', ['A', 'Ca', 'D'], prefix('name')),
    filter('filter[role]', ROLES, eq('role')),
    filter('filter[email][prefix]', ['a', 'b'], prefix('email'), true),
    byId('filter[id][]', 'users', 'id'),
  ],
  projects: [
    filter('filter[name]', PROJECT_NAMES, eq('name')),
    filter('filter[name][prefix]', ['R', 'W'], prefix('name')),
  ],
  issues: [
    filter('filter[status]', STATUSES, eq('status')),
    filter('filter[priority][gte]', ['2', '3', '4'], (record, value) => record.priority >= Number(value)),
    byId('filter[projectId]', 'projects', 'projectId'),
    byId('filter[assigneeId]', 'users', 'assigneeId'),
    filter(
      'filter[assigneeId][null]',
      ['true', 'false'],
      (record, value) => (record.assigneeId === null) === (value === 'true'),
    ),
    filter('filter[project.name]', PROJECT_NAMES, through('projects', 'projectId', eq('name'))),
    filter('filter[assignee.name]', NAMES, through('users', 'assigneeId', eq('name'))),
    filter('filter[assignee.name][prefix]', ['A', 'Ca'], through('users', 'assigneeId', prefix('name'))),
    filter('filter[assignee.role]', ROLES, through('users', 'assigneeId', eq('role'))),
    filter('filter[assignee.email][prefix]', ['a', 'd'], through('users', 'assigneeId', prefix('email')), true),
  ],
  comments: [
    byId('filter[issueId]', 'issues', 'issueId'),
    filter('filter[authorId]', ['12', '13', '22', '23'], eq('authorId')),
    filter('filter[issue.title]', TITLES, through('issues', 'issueId', eq('title'))),
    filter('filter[issue.status]', STATUSES, through('issues', 'issueId', eq('status'))),
  ],
};

/** `sort`, `fields` and `include` values of each resource; those naming `email` are hidden. */
const SORTS: Record<ResourceKey, string[]> = {
  users: ['name', '-name', '-id', 'role,name', 'email', '-email'],
  projects: ['name', '-name'],
  issues: ['title', '-priority', 'priority,-id'],
  comments: ['body', '-createdAt'],
};
const FIELDS: Record<ResourceKey, string[]> = {
  users: ['name', 'name,role', 'email', 'role,email'],
  projects: ['name'],
  issues: ['title', 'title,priority', 'assigneeId'],
  comments: ['body', 'issueId,body'],
};
const INCLUDES: Record<ResourceKey, string[]> = {
  users: ['issues'],
  projects: ['issues'],
  issues: ['project', 'assignee', 'comments', 'project,assignee'],
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

const optional = <T>(values: readonly T[]) => fc.option(fc.constantFrom(...values), { nil: undefined });

const queryOf = (resource: ResourceKey): fc.Arbitrary<QueryPlan> =>
  fc.record({
    resource: fc.constant(resource),
    show: fc.option(fc.nat(30), { nil: undefined, freq: 3 }),
    filters: fc.array(fc.oneof(...FILTERS[resource]), { maxLength: 3 }),
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
