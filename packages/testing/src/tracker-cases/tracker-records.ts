import { expect } from 'vitest';
import type { HttpClient, Reply } from '../http-client.js';
import { DATE_TIME, UUID } from '../library-cases/library-fixtures.js';

// The tracker's records as CONTRACT part 4 shows them on the wire, and helpers that assert
// their exact shape. When a later part adds a field (an issue's `labelIds`), it goes in the
// field lists here.

export type Json = Record<string, unknown>;

export interface UserJson extends Json {
  id: number;
  orgId: number;
  name: string;
  /** Absent for callers other than admins. */
  email?: string;
  role: string;
}

export interface ProjectJson extends Json {
  id: number;
  orgId: number;
  name: string;
}

export interface LabelJson extends Json {
  id: number;
  orgId: number;
  name: string;
  color: string;
}

export interface IssueJson extends Json {
  id: number;
  orgId: number;
  projectId: number;
  title: string;
  status: string;
  priority: number;
  assigneeId: number | null;
  /** Its labels' ids, ascending. */
  labelIds: number[];
  archivedAt: string | null;
}

export interface CommentJson extends Json {
  id: string;
  orgId: number;
  issueId: number;
  authorId: number;
  body: string;
}

/** One resource of the tracker: its path, body keys, fields (as an admin sees them) and hidden fields. */
export interface TrackerResource {
  readonly path: string;
  readonly singular: string;
  readonly plural: string;
  readonly fields: readonly string[];
  /** Fields only the listed roles read. */
  readonly hidden: Readonly<Record<string, readonly string[]>>;
  readonly uuid: boolean;
}

const resource = (singular: string, fields: string[], extra: Partial<TrackerResource> = {}): TrackerResource => ({
  path: `/${singular}s`,
  singular,
  plural: `${singular}s`,
  fields: ['id', 'orgId', ...fields],
  hidden: {},
  uuid: false,
  ...extra,
});

const TIMESTAMPS = ['createdAt', 'updatedAt'];

/** The tracker's resources, referenced ones first. */
export const TRACKER = {
  user: resource('user', ['name', 'email', 'role', ...TIMESTAMPS], { hidden: { email: ['admin'] } }),
  project: resource('project', ['name', ...TIMESTAMPS]),
  label: resource('label', ['name', 'color']),
  issue: resource('issue', [
    'projectId',
    'title',
    'body',
    'status',
    'priority',
    'assigneeId',
    'dueDate',
    'estimate',
    'labelIds',
    'archivedAt',
    ...TIMESTAMPS,
  ]),
  comment: resource('comment', ['issueId', 'authorId', 'body', ...TIMESTAMPS], { uuid: true }),
} as const;

export type ResourceName = keyof typeof TRACKER;
export const RESOURCE_NAMES = Object.keys(TRACKER) as ResourceName[];

/** The fields of a resource's records as a caller of `role` is shown them. */
export function fieldsFor(name: ResourceName, role: string): string[] {
  const { fields, hidden } = TRACKER[name];
  return fields.filter((field) => hidden[field]?.includes(role) ?? true);
}

/** Asserts a record of `name` as a caller of `role` sees it: exactly its fields, ids and timestamps well-formed. */
export function expectShape<T extends Json>(name: ResourceName, role: string, value: unknown): T {
  expect(value, `a ${name}`).toBeTypeOf('object');
  expect(value).not.toBeNull();
  const record = value as Json;
  expect(Object.keys(record).sort(), `the fields of a ${name} shown to a ${role}`).toEqual(
    fieldsFor(name, role).sort(),
  );
  if (TRACKER[name].uuid) expect(record.id).toMatch(UUID);
  else expect(Number.isSafeInteger(record.id) && (record.id as number) > 0, `id ${record.id}`).toBe(true);
  expect(Number.isSafeInteger(record.orgId)).toBe(true);
  for (const field of ['createdAt', 'updatedAt', 'archivedAt']) {
    if (typeof record[field] === 'string') expect(record[field]).toMatch(DATE_TIME);
  }
  return record as T;
}

/** The record of a 200 answer under the resource's singular key, checked for `role`. */
export function recordOf<T extends Json>(reply: Reply, name: ResourceName, role: string): T {
  expect(reply.status, reply.text).toBe(200);
  expect(Object.keys(reply.body)).toEqual([TRACKER[name].singular]);
  return expectShape<T>(name, role, reply.body[TRACKER[name].singular]);
}

/** Creates a record through `caller`, asserting a 200 and the shape its role is shown. */
export async function create<T extends Json>(caller: HttpClient, name: ResourceName, role: string, values: Json) {
  return recordOf<T>(await caller.json('POST', TRACKER[name].path, values), name, role);
}

/** Every record `path` lists (one page of at most 100), asserting a 200 under the plural key. */
export async function listOf<T extends Json>(caller: HttpClient, name: ResourceName, query = ''): Promise<T[]> {
  const reply = await caller.get(`${TRACKER[name].path}?per_page=100${query ? `&${query}` : ''}`);
  expect(reply.status, reply.text).toBe(200);
  expect(Object.keys(reply.body)).toEqual([TRACKER[name].plural]);
  return reply.body[TRACKER[name].plural] as T[];
}

/** `X-Total-Count` of an index query (with `count=true`, which cursor-paged resources need). */
export async function totalOf(caller: HttpClient, name: ResourceName, query = ''): Promise<number> {
  const reply = await caller.get(`${TRACKER[name].path}?per_page=1&count=true${query ? `&${query}` : ''}`);
  expect(reply.status, reply.text).toBe(200);
  const total = reply.headers.get('x-total-count');
  expect(total, 'X-Total-Count').toMatch(/^(0|[1-9][0-9]*)$/);
  return Number(total);
}

/** The ids of records, sorted (numbers numerically, uuids by code point). */
export function idsOf(records: readonly Json[]): (number | string)[] {
  return records.map((record) => record.id as number | string).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A record id that exists nowhere: a large integer, or a fresh uuid. */
export function missingId(name: ResourceName): number | string {
  return TRACKER[name].uuid ? crypto.randomUUID() : 987_654_321;
}

/**
 * The text of a reply with every occurrence of `values` (whole words: an id `4` is not the `4`
 * of `404`; a long one also when the answer shortens it, `3f2504e0-4f89…`) replaced by a
 * placeholder, to compare two answers that differ only by them.
 */
export function normalized(reply: Reply, values: readonly (string | number)[]): string {
  let text = reply.text;
  for (const value of values.map(String)) {
    const literal = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const word = value.length > 12 ? `${literal(value.slice(0, 12))}[\\w-]*…?` : literal(value);
    text = text.replace(new RegExp(`(?<![\\w-])${word}(?![\\w-])`, 'g'), '<value>');
  }
  return text;
}

/** Whether any object in a JSON value (records, included ones, nested lists) has the key `name`. */
export function hasKeyDeep(value: unknown, name: string): boolean {
  if (Array.isArray(value)) return value.some((item) => hasKeyDeep(item, name));
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, inner]) => key === name || hasKeyDeep(inner, name));
}
