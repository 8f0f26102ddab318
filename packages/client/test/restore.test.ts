import { memoryStore } from '@resourcery/core';
import { createListener } from '@resourcery/node';
import { type HttpSuiteTarget, serveHttp } from '@resourcery/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessApi, type issues, tokenFor } from '../../../test-support/access-resources.js';
import { etagOf, ResourceError, resourceClient } from '../src/index.js';

// `restore` over real HTTP against a resource that archives: PATCH ?archived=true with the
// archive field null, for whoever may destroy the record; a member's restore is a 403 naming it.

let target: HttpSuiteTarget;
let admin: string;
let member: string;
beforeAll(async () => {
  target = await serveHttp(createListener({ ...accessApi, store: memoryStore(), basePath: '/api' }));
  admin = await tokenFor({ sub: 1, org: 1, role: 'admin' });
  member = await tokenFor({ sub: 2, org: 1, role: 'member' });
});
afterAll(() => target.close());

const issuesAs = (token: string) => resourceClient<typeof issues>({ baseUrl: target.baseUrl, name: 'issue', token });

describe('resourceClient().restore', () => {
  it('brings back an archived record, with its ETag; a caller who may not destroy it gets a 403 naming the field', async () => {
    const issue = await issuesAs(member).create({ title: 'Archive me' });
    await issuesAs(admin).destroy(issue.id);
    const gone = await issuesAs(admin)
      .show(issue.id)
      .catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(ResourceError);
    expect((gone as ResourceError).status).toBe(404);
    const refused = await issuesAs(member)
      .restore(issue.id, 'archivedAt')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ResourceError);
    expect((refused as ResourceError).status).toBe(403);
    expect((refused as ResourceError).errors).toEqual({ archivedAt: ['may not be changed by you'] });
    // archived=true on show and index finds it.
    const archived = await issuesAs(member).show(issue.id, { archived: true });
    expect(archived.archivedAt).toEqual(expect.any(String));
    const listed = await issuesAs(member).index({ archived: true, filter: { archivedAt: { null: false } } });
    expect(listed.records.map((record) => record.id)).toEqual([issue.id]);
    const restored = await issuesAs(admin).restore(issue.id, 'archivedAt');
    expect(restored).toMatchObject({ id: issue.id, title: 'Archive me', archivedAt: null });
    expect(etagOf(restored)).toBeTruthy();
    expect(await issuesAs(member).show(issue.id)).toEqual(restored);
  });
});
