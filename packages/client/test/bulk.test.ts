import 'reflect-metadata';
import { defineResource, memoryStore, type ServerSet } from '@resourcery/core';
import { createListener } from '@resourcery/node';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { IsIn, IsInt, IsString, Length, Matches, Max, Min } from 'class-validator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authenticate, tenancy, tokenFor } from '../../../test-support/access-resources.js';
import { etagOf, ResourceError, resourceClient } from '../src/index.js';

// The bulk writes and upserts of the typed client over real HTTP (CONTRACT part 4, "Bulk
// writes"), against an API with tenancy and a field only admins change: all or none, answers in
// the order sent, failures as one ResourceError naming fields by JSON Pointer.

class Task {
  @IsInt() orgId!: ServerSet<number>;
  @IsString() @Length(1, 100) title!: string;
  @IsIn(['todo', 'done']) state!: string;
  @IsInt() @Min(1) @Max(4) priority!: number;
}
class Tag {
  @IsInt() orgId!: ServerSet<number>;
  @IsString() @Length(1, 50) name!: string;
  @Matches(/^#[0-9a-f]{6}$/) color!: string;
}

const tasks = defineResource({
  name: 'task',
  model: Task,
  bulk: { max: 3 },
  defaults: { state: 'todo', priority: 3 },
  access: { fields: { priority: { update: ['admin'] } } },
});
const tags = defineResource({ name: 'tag', model: Tag, bulk: true, unique: ['name'], upsert: ['name'] });
const notes = defineResource({ name: 'note', model: Tag });

let target: HttpSuiteTarget;
let admin: string;
let member: string;
let stranger: string;
beforeAll(async () => {
  const api = { resources: [tasks, tags, notes], authenticate, tenancy, store: memoryStore(), basePath: '/api' };
  target = await serveHttp(createListener(api));
  admin = await tokenFor({ sub: 1, org: 1, role: 'admin' });
  member = await tokenFor({ sub: 2, org: 1, role: 'member' });
  stranger = await tokenFor({ sub: 3, org: 2, role: 'admin' });
});
afterAll(() => target.close());

const tasksAs = (token: string, fetch?: (input: string, init: RequestInit) => Promise<Response>) =>
  resourceClient<typeof tasks>({ baseUrl: target.baseUrl, name: 'task', token, ...(fetch ? { fetch } : {}) });
const tagsAs = (token: string) => resourceClient<typeof tags>({ baseUrl: target.baseUrl, name: 'tag', token });

async function failure(call: Promise<unknown>): Promise<ResourceError> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ResourceError);
  return error as ResourceError;
}

describe('createMany', () => {
  it('creates the records in one request, answered in the order given', async () => {
    const created = await tasksAs(member).createMany([{ title: 'Write' }, { title: 'Review', state: 'done' }]);
    expect(created).toEqual([
      { id: expect.any(Number), orgId: 1, title: 'Write', state: 'todo', priority: 3 },
      { id: expect.any(Number), orgId: 1, title: 'Review', state: 'done', priority: 3 },
    ]);
    expect(created[1]?.id).toBeGreaterThan(created[0]?.id ?? 0);
    // A list answers no ETag: these records carry none, as an index's do.
    expect(etagOf(created[0] as object)).toBeUndefined();
  });

  it('stores none when one is invalid: a 422 naming it by JSON Pointer', async () => {
    const before = (await tasksAs(member).index()).total;
    const error = await failure(tasksAs(member).createMany([{ title: 'Fine' }, { title: '' }]));
    expect([error.status, error.code]).toEqual([422, 'validation_failed']);
    expect(Object.keys(error.errors)).toEqual(['/tasks/1/title']);
    const tooMany = await failure(
      tasksAs(member).createMany([{ title: 'a' }, { title: 'b' }, { title: 'c' }, { title: 'd' }]),
    );
    expect(Object.keys(tooMany.errors)).toEqual(['/tasks']);
    expect((await tasksAs(member).index()).total).toBe(before);
  });
});

describe('updateMany', () => {
  it('changes each record, with the ETag it must still have', async () => {
    const [a, b] = await tasksAs(member).createMany([{ title: 'A' }, { title: 'B' }]);
    if (!a || !b) throw new Error('created nothing');
    const shown = await tasksAs(member).show(a.id);
    const changed = await tasksAs(member).updateMany([
      { id: b.id, state: 'done' },
      { id: a.id, _etag: etagOf(shown), title: 'A2' },
    ]);
    expect(changed).toEqual([
      { ...b, state: 'done' },
      { ...a, title: 'A2' },
    ]);
    const stale = await failure(
      tasksAs(member).updateMany([
        { id: b.id, title: 'B2' },
        { id: a.id, _etag: etagOf(shown), title: 'A3' },
      ]),
    );
    expect([stale.status, stale.code]).toEqual([412, 'precondition_failed']);
    expect(await tasksAs(member).show(b.id)).toMatchObject({ title: 'B', state: 'done' });
  });

  it('refuses an entry whose _etag is unknown before any request, rather than write unchecked', async () => {
    const fetch = vi.fn(globalThis.fetch);
    const [listed] = (await tasksAs(member).index({ perPage: 1 })).records;
    if (!listed) throw new Error('no task');
    const call = tasksAs(member, fetch).updateMany([{ id: listed.id, _etag: etagOf(listed), title: 'X' }]);
    await expect(call).rejects.toThrow(TypeError);
    expect(fetch).not.toHaveBeenCalled();
    await expect(tasksAs(member, fetch).createMany([])).rejects.toThrow(RangeError);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("answers a 403 naming the entry's field a member may not change, a 422 for a record not visible", async () => {
    const [task] = await tasksAs(admin).createMany([{ title: 'Mine' }]);
    if (!task) throw new Error('created nothing');
    const forbidden = await failure(tasksAs(member).updateMany([{ id: task.id, priority: 1 }]));
    expect([forbidden.status, forbidden.errors]).toEqual([403, { '/tasks/0/priority': ['may not be changed by you'] }]);
    const hidden = await failure(tasksAs(stranger).updateMany([{ id: task.id, title: 'Theirs' }]));
    expect([hidden.status, hidden.errors]).toEqual([422, { '/tasks/0/id': ['does not exist'] }]);
  });
});

describe('destroyMany', () => {
  it('destroys the records of the ids, all or none', async () => {
    const [a, b] = await tasksAs(admin).createMany([{ title: 'Old' }, { title: 'Older' }]);
    if (!a || !b) throw new Error('created nothing');
    const missing = await failure(tasksAs(stranger).destroyMany([a.id]));
    expect(missing.status).toBe(404);
    const [theirs] = await tasksAs(stranger).createMany([{ title: 'Theirs' }]);
    const mixed = await failure(tasksAs(admin).destroyMany([a.id, theirs?.id ?? 0]));
    expect(mixed.status).toBe(404);
    expect(await tasksAs(admin).show(a.id)).toEqual(a);
    await tasksAs(admin).destroyMany([a.id, b.id]);
    expect((await failure(tasksAs(admin).show(b.id))).status).toBe(404);
  });
});

describe('upsert', () => {
  it('creates the record of a key, then updates it', async () => {
    const created = await tagsAs(member).upsert('name', { name: 'bug', color: '#d73a4a' });
    expect(created).toEqual({ id: expect.any(Number), orgId: 1, name: 'bug', color: '#d73a4a' });
    const updated = await tagsAs(member).upsert('name', { name: 'bug', color: '#b60205' });
    expect(updated).toEqual({ ...created, color: '#b60205' });
    // Another organization's tag of that name is another tag.
    expect((await tagsAs(stranger).upsert('name', { name: 'bug', color: '#000000' })).id).not.toBe(created.id);
    const many = await tagsAs(member).upsertMany('name', [
      { name: 'ui', color: '#0e8a16' },
      { name: 'bug', color: '#d73a4a' },
    ]);
    expect(many.map((tag) => [tag.name, tag.id === created.id])).toEqual([
      ['ui', false],
      ['bug', true],
    ]);
  });

  it('is a 400 by a key the resource does not upsert by; a resource without bulk takes no list', async () => {
    const wrong = await failure(tagsAs(member).upsert('color', { name: 'x', color: '#000000' }));
    expect([wrong.status, wrong.code]).toEqual([400, 'invalid_query']);
    const notes = resourceClient<typeof tags>({ baseUrl: target.baseUrl, name: 'tag', path: 'notes', token: member });
    expect((await failure(notes.updateMany([{ id: 1, name: 'x' }]))).status).toBe(405);
    expect((await failure(notes.createMany([{ name: 'x', color: '#000000' }]))).status).toBe(422);
  });
});
