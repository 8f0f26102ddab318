import { matchesSearch, searchWords } from '@resourcery/core/store';
import fc from 'fast-check';
import { NAMES, PROJECT_NAMES, ROLES, STATUSES, TITLES } from './plan.js';

// Random queries of the access property: filters (relation filters too), `q=` search, sort,
// fields=, include=, pages, archived=true, on every resource; and shows of ids of both organizations.
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
}

/** How the reference evaluates a filter on a record, through the caller's own view of related records. */
export type FilterTest = (record: Json, value: string, lookup: Lookup) => boolean;

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

/** A filter parameter of a resource: its values (or ids of a resource), how it evaluates, whether it names `email`. */
interface FilterSpec {
  readonly param: string;
  readonly values?: readonly string[];
  readonly ids?: ResourceKey;
  readonly test: FilterTest;
  readonly hidden?: boolean;
}

const FILTERS: Record<ResourceKey, readonly FilterSpec[]> = {
  users: [
    { param: 'filter[name]', values: NAMES, test: eq('name') },
    { param: 'filter[name][prefix]', values: ['A', 'Ca', 'D'], test: prefix('name') },
    { param: 'filter[role]', values: ROLES, test: eq('role') },
    { param: 'filter[email][prefix]', values: ['a', 'b'], test: prefix('email'), hidden: true },
    { param: 'filter[id][]', ids: 'users', test: eq('id') },
  ],
  projects: [
    { param: 'filter[name]', values: PROJECT_NAMES, test: eq('name') },
    { param: 'filter[name][prefix]', values: ['R', 'W'], test: prefix('name') },
  ],
  issues: [
    { param: 'filter[status]', values: STATUSES, test: eq('status') },
    {
      param: 'filter[priority][gte]',
      values: ['2', '3', '4'],
      test: (record, value) => record.priority >= Number(value),
    },
    { param: 'filter[projectId]', ids: 'projects', test: eq('projectId') },
    { param: 'filter[assigneeId]', ids: 'users', test: eq('assigneeId') },
    {
      param: 'filter[assigneeId][null]',
      values: ['true', 'false'],
      test: (record, value) => (record.assigneeId === null) === (value === 'true'),
    },
    { param: 'filter[project.name]', values: PROJECT_NAMES, test: through('projects', 'projectId', eq('name')) },
    { param: 'filter[assignee.name]', values: NAMES, test: through('users', 'assigneeId', eq('name')) },
    {
      param: 'filter[assignee.name][prefix]',
      values: ['A', 'Ca'],
      test: through('users', 'assigneeId', prefix('name')),
    },
    { param: 'filter[assignee.role]', values: ROLES, test: through('users', 'assigneeId', eq('role')) },
    {
      param: 'q',
      values: ['crash', 'CRA', 'slow', 'typo', 'again crash', 'ag cr', 'zebra'],
      test: (record, value) => matchesSearch([record.title, record.body], searchWords(value)),
    },
    {
      param: 'filter[assignee.email][prefix]',
      values: ['a', 'd'],
      test: through('users', 'assigneeId', prefix('email')),
      hidden: true,
    },
  ],
  comments: [
    { param: 'filter[issueId]', ids: 'issues', test: eq('issueId') },
    { param: 'filter[authorId]', values: ['12', '13', '22', '23'], test: eq('authorId') },
    { param: 'filter[issue.title]', values: TITLES, test: through('issues', 'issueId', eq('title')) },
    { param: 'filter[issue.status]', values: STATUSES, test: through('issues', 'issueId', eq('status')) },
  ],
};

/** How the reference evaluates one filter parameter of a resource. */
export function testOf(resource: ResourceKey, param: string): FilterTest {
  const spec = FILTERS[resource].find((each) => each.param === param);
  if (!spec) throw new Error(`no filter ${param} on ${resource}`);
  return spec.test;
}

function planOf({ param, values, ids, hidden = false }: FilterSpec): fc.Arbitrary<FilterPlan> {
  if (ids) return fc.nat(30).map((index) => ({ param, value: '#id', hidden, pick: { resource: ids, index } }));
  return fc.constantFrom(...(values ?? [])).map((value) => ({ param, value, hidden }));
}

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
    // One parameter at most once: a repeated `filter[a]` is a 400 of its own.
    filters: fc.uniqueArray(fc.oneof(...FILTERS[resource].map(planOf)), {
      maxLength: 3,
      selector: (each) => each.param,
    }),
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
