// Unique per owner: one user's duplicate is refused, another user's same name is not, and the
// scoped index settles a race the check in `prepare` cannot.
import { createApi } from '@resourcery/core';
import { sqlStore } from '@resourcery/sql';
import { callApi } from '@resourcery/testing';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { apiHooks } from './owned-books.js';
import { migrate, tags } from './scoped-unique.js';

const as = (token: string) => ({ authorization: `Bearer ${token}` });
const stores: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function serve(index: 'per owner' | 'global') {
  const store = sqlStore('sqlite::memory:', { createTables: false });
  stores.push(store);
  await migrate(store.db);
  if (index === 'global') await sql`CREATE UNIQUE INDEX tags_name_unique ON tags ("name")`.execute(store.db);
  const api = createApi({ resources: [tags], store, hooks: apiHooks });
  const create = (token: string, body: unknown) =>
    callApi(api, { method: 'POST', path: '/tags', headers: as(token), body });
  const list = async (token: string) =>
    (await callApi(api, { method: 'GET', path: '/tags', headers: as(token) })).body as { tags: unknown[] };
  return Object.assign(create, { list });
}

describe('a name unique per owner', () => {
  it('refuses your own duplicate with a 422, and says nothing of other users', async () => {
    const create = await serve('per owner');
    expect((await create('alice', { name: 'urgent' })).status).toBe(200);
    expect((await create('bob', { name: 'urgent' })).status).toBe(200);
    const again = await create('alice', { name: 'urgent' });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ errors: { name: ['is already taken'] } });
  });

  it('keeps one of two racing duplicates: the scoped index refuses the other', async () => {
    const create = await serve('per owner');
    const replies = await Promise.all([create('alice', { name: 'later' }), create('alice', { name: 'later' })]);
    expect(replies.map((reply) => reply.status).sort()).toEqual(
      replies.some((reply) => reply.status === 409) ? [200, 409] : [200, 422],
    );
    expect((await create.list('alice')).tags).toHaveLength(1);
  });

  it('what to avoid: a unique index on the name alone tells Bob that someone has "urgent"', async () => {
    const create = await serve('global');
    await create('alice', { name: 'urgent' });
    const leak = await create('bob', { name: 'urgent' });
    expect(leak.status).toBe(422);
    expect(leak.body).toMatchObject({ errors: { name: ['is already taken'] } });
  });
});
