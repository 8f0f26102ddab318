import { matchesSearch, searchWords } from '@resourcery/core/store';
import fc from 'fast-check';
import { LABEL_NAMES, NAMES, PROJECT_NAMES, ROLES, STATUSES, TITLES } from './plan.js';

// The filter parameters of the access property's random queries (relation filters through a
// belongs-to and through the issues' labels too, and `q=`), each with how the reference
// evaluates it on a record through what the caller sees.

export type ResourceKey = 'users' | 'projects' | 'labels' | 'issues' | 'comments';
// biome-ignore lint/suspicious/noExplicitAny: records of any resource, read freely by the checks
export type Json = Record<string, any>;

/** Looks a visible record up: the caller's own view of a resource. */
export type Lookup = (resource: ResourceKey, id: unknown) => Json | undefined;

/** One `filter[...]` parameter and how the reference evaluates it on a record. */
export interface FilterPlan {
  readonly param: string;
  /** The value; of a `[]` (any-of) parameter, its values separated by commas. */
  readonly value: string;
  readonly hidden: boolean;
  /** The id (from the seeded ids) the value stands for, when `value` is `#id`. */
  readonly pick?: { resource: ResourceKey; index: number };
}

/** How the reference evaluates a filter on a record, through the caller's own view of related records. */
export type FilterTest = (record: Json, value: string, lookup: Lookup) => boolean;

const eq = (field: string) => (record: Json, value: string) => String(record[field]) === value;
const anyOf = (field: string) => (record: Json, value: string) => value.split(',').includes(String(record[field]));
const prefix = (field: string) => (record: Json, value: string) =>
  typeof record[field] === 'string' && record[field].startsWith(value);
/** A condition on the record a belongs-to relation names, as the caller sees it. */
const through =
  (resource: ResourceKey, key: string, test: (related: Json, value: string) => boolean) =>
  (record: Json, value: string, lookup: Lookup) => {
    const related = record[key] === null ? undefined : lookup(resource, record[key]);
    return related !== undefined && test(related, value);
  };
/** A condition on at least one of the records a set of ids (`labelIds`) names, among those the caller sees. */
const throughSet =
  (resource: ResourceKey, key: string, test: (related: Json, value: string) => boolean) =>
  (record: Json, value: string, lookup: Lookup) =>
    (record[key] as unknown[]).some((id) => {
      const related = lookup(resource, id);
      return related !== undefined && test(related, value);
    });

/** A filter parameter of a resource: its values (or ids of a resource), how it evaluates, whether it names `email`. */
interface FilterSpec {
  readonly param: string;
  readonly values?: readonly string[];
  readonly ids?: ResourceKey;
  readonly test: FilterTest;
  readonly hidden?: boolean;
  /** How often it is picked, against 1 for the others (the label filters: often). */
  readonly weight?: number;
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
  labels: [
    { param: 'filter[name]', values: LABEL_NAMES, test: eq('name') },
    { param: 'filter[name][]', values: ['bug,ui', 'docs,nope'], test: anyOf('name') },
    { param: 'filter[name][prefix]', values: ['bu', 'd'], test: prefix('name') },
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
      param: 'filter[labels.name]',
      values: [...LABEL_NAMES, 'nope'],
      test: throughSet('labels', 'labelIds', eq('name')),
      weight: 2,
    },
    {
      param: 'filter[labels.name][]',
      values: ['bug,ui', 'docs,nope', 'bugfix'],
      test: throughSet('labels', 'labelIds', anyOf('name')),
      weight: 2,
    },
    {
      param: 'filter[labels.name][prefix]',
      values: ['bu', 'u', 'd'],
      test: throughSet('labels', 'labelIds', prefix('name')),
      weight: 2,
    },
    {
      param: 'filter[labels.name][ne]',
      values: ['bug', 'ui'],
      test: throughSet('labels', 'labelIds', (label, value) => label.name !== value),
      weight: 2,
    },
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

/**
 * Up to three random filters of a resource, each parameter at most once: a repeated `filter[a]`
 * is a 400 of its own, and `filter[a]` with `filter[a][]` is one parameter given twice.
 */
export const filtersOf = (resource: ResourceKey): fc.Arbitrary<FilterPlan[]> =>
  fc.uniqueArray(
    fc.oneof(...FILTERS[resource].map((spec) => ({ arbitrary: planOf(spec), weight: spec.weight ?? 1 }))),
    {
      maxLength: 3,
      selector: (each) => each.param.replace(/\[\]$/, ''),
    },
  );
