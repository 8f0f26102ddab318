// A many-to-many relation is checked when it is declared and mounted (a mistake throws at
// start-up, naming it), and its ids are checked on every write before anything is stored.
import 'reflect-metadata';
import { createApi, defineResource, manyToMany, memoryStore } from '@resourcery/core';
import { callApi } from '@resourcery/testing';
import { IsString, IsUUID } from 'class-validator';
import { describe, expect, it } from 'vitest';

class Tag {
  @IsUUID() id!: string;
  @IsString() name!: string;
}
class Post {
  @IsString() title!: string;
  tagIds?: string[];
}
class Decorated {
  @IsString() title!: string;
  @IsString() tagIds!: string;
}

const tags = defineResource({ name: 'tag', model: Tag });

describe('manyToMany', () => {
  it('refuses a limit that is not a positive integer, and an empty ids name', () => {
    expect(() => manyToMany(Tag, { ids: 'tagIds', limit: 0 })).toThrow('limit must be a positive integer');
    expect(() => manyToMany(Tag, { ids: '' })).toThrow('ids names a field');
  });

  it('refuses ids held in a decorated field of the model', () => {
    const declare = () =>
      defineResource({ name: 'post', model: Decorated, relations: { tags: manyToMany(Tag, { ids: 'tagIds' }) } });
    expect(declare).toThrow('relation tags holds its ids in "tagIds", which must be a name of its own');
  });

  it('holds uuid ids, checks them, and counts a repeated one once up to its limit', async () => {
    const posts = defineResource({
      name: 'post',
      model: Post,
      relations: { tags: manyToMany(Tag, { ids: 'tagIds', limit: 2, through: 'post_tag_links' }) },
    });
    const store = memoryStore();
    const api = createApi({ resources: [tags, posts], store });
    const call = (method: string, path: string, body?: unknown) => callApi(api, { method, path, body });
    const a = ((await call('POST', '/tags', { name: 'a' })).body as { tag: { id: string } }).tag.id;
    const b = ((await call('POST', '/tags', { name: 'b' })).body as { tag: { id: string } }).tag.id;
    const c = ((await call('POST', '/tags', { name: 'c' })).body as { tag: { id: string } }).tag.id;
    const made = await call('POST', '/posts', { title: 'P', tagIds: [b, a.toUpperCase(), b] });
    expect(made.status).toBe(200);
    expect((made.body as { post: { tagIds: string[] } }).post.tagIds).toEqual([a, b].sort());
    const tooMany = await call('PATCH', '/posts/1', { tagIds: [a, b, c] });
    expect(tooMany.body).toMatchObject({ errors: { tagIds: ['must hold at most 2 ids'] } });
    const notIds = await call('PATCH', '/posts/1', { tagIds: [1] });
    expect(notIds.body).toMatchObject({ errors: { tagIds: ['must be an array of ids'] } });
    // The join collection is the library's, under the name `through` gives.
    const links = await store.transaction(async (tx) =>
      tx
        .collection({
          name: 'post_tag_links',
          attributes: [{ name: 'id', type: 'integer', nullable: false }],
          indexed: [],
        })
        .list({ where: [], order: [{ field: 'id', direction: 'asc' }], limit: 10, offset: 0, count: true }),
    );
    expect(links.total).toBe(2);
  });

  it('joins the errors of the body and of the ids in one 422', async () => {
    const posts = defineResource({
      name: 'post',
      model: Post,
      relations: { tags: manyToMany(Tag, { ids: 'tagIds' }) },
    });
    const api = createApi({ resources: [tags, posts], store: memoryStore() });
    const reply = await callApi(api, { method: 'POST', path: '/posts', body: { tagIds: 'x' } });
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ errors: { title: ['is required'], tagIds: ['must be an array of ids'] } });
  });
});
