import 'reflect-metadata';
import { belongsTo, createApi, defineResource, hasMany, memoryStore, type Principal } from '@resourcery/core';
import { callApi } from '@resourcery/testing';
import { IsBoolean, IsInt, IsOptional, IsString, Length } from 'class-validator';
import { describe, expect, it } from 'vitest';

// The leaks a hostile review found (issue "Access control as one declared model"), each closed:
// relation filters, foreign-key checks and include= see of a related resource only what the
// caller's own index of it lists, and `fields=` cannot walk around a redacting render step.
// The first tests use only what the library had before the access model (a `scope` step, a
// `render` step), so they fail on the code before the fix; the others use the access model.

class Owner {
  @IsString() @Length(1, 100) name!: string;
  @IsInt() userId!: number;
}

class Pet {
  @IsString() @Length(1, 100) name!: string;
  @IsInt() ownerId!: number;
}

class Profile {
  @IsString() email!: string;
  @IsOptional() @IsBoolean() secret?: boolean | null;
}

/** The caller, from an `x-user` header (a stand-in for a real authentication). */
const userOf = (ctx: { request: { headers: Readonly<Record<string, string | undefined>> } }) =>
  Number(ctx.request.headers['x-user']);

function scopedApi() {
  const owners = defineResource({
    name: 'owner',
    model: Owner,
    fields: { readOnly: ['userId'] },
    steps: {
      // Each user sees only their own owners; relation filters, includes and foreign keys must too.
      scope: (ctx) => {
        if (ctx.resource.name !== 'owner') throw new Error(`the owner scope ran in a ${ctx.resource.name} context`);
        return { userId: userOf(ctx) };
      },
      prepare: (ctx, next) => (ctx.action === 'create' ? { ...next(), userId: userOf(ctx) } : next()),
    },
    relations: { pets: hasMany(Pet, { foreignKey: 'ownerId' }) },
  });
  const pets = defineResource({
    name: 'pet',
    model: Pet,
    relations: { owner: belongsTo(Owner, { foreignKey: 'ownerId' }) },
  });
  return createApi({ resources: [owners, pets], store: memoryStore() });
}

const as = (user: number) => ({ 'x-user': String(user) });

describe('leaks through relations, with scope steps', () => {
  it('a relation filter never matches through a related record the caller cannot see', async () => {
    const api = scopedApi();
    const alice = await callApi(api, { method: 'POST', path: '/owners', headers: as(1), body: { name: 'Alice' } });
    const ownerId = (alice.body as { owner: { id: number } }).owner.id;
    await callApi(api, { method: 'POST', path: '/pets', headers: as(1), body: { name: 'Rex', ownerId } });
    // Bob cannot see Alice; reading her name one letter at a time through pets must answer nothing.
    const probe = await callApi(api, { method: 'GET', path: '/pets?filter[owner.name][prefix]=A', headers: as(2) });
    expect(probe.status).toBe(200);
    expect(probe.body).toEqual({ pets: [] });
    const own = await callApi(api, { method: 'GET', path: '/pets?filter[owner.name][prefix]=A', headers: as(1) });
    expect((own.body as { pets: unknown[] }).pets).toHaveLength(1);
  });

  it('a foreign key naming a record the caller cannot see is 422 does not exist, as one that exists nowhere', async () => {
    const api = scopedApi();
    const alice = await callApi(api, { method: 'POST', path: '/owners', headers: as(1), body: { name: 'Alice' } });
    const ownerId = (alice.body as { owner: { id: number } }).owner.id;
    const hidden = await callApi(api, { method: 'POST', path: '/pets', headers: as(2), body: { name: 'X', ownerId } });
    const nowhere = await callApi(api, {
      method: 'POST',
      path: '/pets',
      headers: as(2),
      body: { name: 'X', ownerId: 999 },
    });
    expect(hidden.status).toBe(422);
    expect(hidden.body).toEqual(nowhere.body);
    expect(hidden.body).toMatchObject({ errors: { ownerId: ['does not exist'] } });
    // And Alice can destroy her owner: nobody attached a record to it behind her back.
    expect((await callApi(api, { method: 'DELETE', path: `/owners/${ownerId}`, headers: as(1) })).status).toBe(204);
  });

  it('include= runs the target’s scope step in a context of the target, and adds only what it lists', async () => {
    const api = scopedApi();
    const alice = await callApi(api, { method: 'POST', path: '/owners', headers: as(1), body: { name: 'Alice' } });
    const ownerId = (alice.body as { owner: { id: number } }).owner.id;
    await callApi(api, { method: 'POST', path: '/pets', headers: as(1), body: { name: 'Rex', ownerId } });
    const mine = await callApi(api, { method: 'GET', path: '/pets?include=owner', headers: as(1) });
    expect(mine.status).toBe(200);
    expect((mine.body as { pets: { owner: unknown }[] }).pets[0]?.owner).toMatchObject({ name: 'Alice' });
    const theirs = await callApi(api, { method: 'GET', path: '/pets?include=owner', headers: as(2) });
    expect((theirs.body as { pets: { owner: unknown }[] }).pets[0]?.owner).toBeNull();
  });

  it('fields= hands a render step of the resource’s own the whole record, so it redacts as without', async () => {
    const profiles = defineResource({
      name: 'profile',
      model: Profile,
      fields: { show: ['email'] },
      steps: {
        render: (record, _ctx, next) => (record.secret ? { ...next(record), email: 'hidden' } : next(record)),
      },
    });
    const api = createApi({ resources: [profiles], store: memoryStore() });
    await callApi(api, { method: 'POST', path: '/profiles', body: { email: 'a@example.com', secret: true } });
    for (const path of ['/profiles', '/profiles?fields=email', '/profiles/1?fields=email']) {
      const reply = await callApi(api, { method: 'GET', path });
      expect(JSON.stringify(reply.body), path).not.toContain('a@example.com');
    }
  });
});

class Note {
  @IsString() @Length(1, 100) text!: string;
  @IsInt() bookId!: number;
  @IsOptional() @IsInt() salary?: number | null;
}

class Book {
  @IsString() @Length(1, 100) title!: string;
}

describe('leaks through relations, with the access model', () => {
  const books = defineResource({
    name: 'book',
    model: Book,
    relations: { notes: hasMany(Note, { foreignKey: 'bookId' }) },
  });
  const notes = defineResource({
    name: 'note',
    model: Note,
    relations: { book: belongsTo(Book, { foreignKey: 'bookId' }) },
    access: { read: ['admin'], fields: { salary: { read: ['admin'] } } },
  });
  const api = () =>
    createApi({
      resources: [books, notes],
      store: memoryStore(),
      authenticate: (request) => {
        const role = request.headers['x-role'];
        return role ? ({ sub: 1, role } as Principal) : undefined;
      },
    });
  const role = (name: string) => ({ 'x-role': name });

  it('include= of a resource the caller may not read is 403, never its records', async () => {
    const served = api();
    await callApi(served, { method: 'POST', path: '/books', headers: role('admin'), body: { title: 'Dune' } });
    await callApi(served, { method: 'POST', path: '/notes', headers: role('admin'), body: { text: 'x', bookId: 1 } });
    const admin = await callApi(served, { method: 'GET', path: '/books?include=notes', headers: role('admin') });
    expect((admin.body as { books: { notes: unknown[] }[] }).books[0]?.notes).toHaveLength(1);
    const user = await callApi(served, { method: 'GET', path: '/books?include=notes', headers: role('user') });
    expect(user.status).toBe(403);
    expect(JSON.stringify(user.body)).not.toContain('"text"');
    expect((await callApi(served, { method: 'GET', path: '/notes', headers: role('user') })).status).toBe(403);
    expect((await callApi(served, { method: 'GET', path: '/books' })).status).toBe(401);
  });
});
