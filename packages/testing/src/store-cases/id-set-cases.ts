import type { Collection, CollectionSchema, Condition, StoredRecord } from '@resourcery/core/store';
import { expect } from 'vitest';
import type { CaseHome, StoreCaseGroup } from './fixtures.js';
import { all, violation } from './library.js';

// Sets of ids held through a join collection (`CollectionSchema.sets`, a many-to-many relation)
// and relation filters through it (`Condition.related.key`): tags, posts holding `tagIds`, and
// the join collection `post_tags` (`postId`, `tagId`, both cascading foreign keys).

/**
 * Tags, posts (holding `tagIds`) and their join collection, named `<prefix>_<collection>`.
 *
 * @example
 * ```ts
 * const [tags, posts, postTags] = idSetSchemas('blog'); // blog_tags, blog_posts, blog_post_tags
 * await store.init([tags, posts, postTags]);
 * ```
 */
export function idSetSchemas(prefix: string): [CollectionSchema, CollectionSchema, CollectionSchema] {
  const tags = `${prefix}_tags`;
  const posts = `${prefix}_posts`;
  const join = `${prefix}_post_tags`;
  return [
    {
      name: tags,
      attributes: [
        { name: 'id', type: 'integer', nullable: false },
        { name: 'name', type: 'string', nullable: false, maxLength: 50 },
      ],
      indexed: ['name'],
    },
    {
      name: posts,
      attributes: [
        { name: 'id', type: 'integer', nullable: false },
        { name: 'title', type: 'string', nullable: false, maxLength: 100 },
      ],
      indexed: ['title'],
      sets: [{ field: 'tagIds', through: join, key: 'postId', value: 'tagId' }],
    },
    {
      name: join,
      attributes: [
        { name: 'id', type: 'integer', nullable: false },
        { name: 'postId', type: 'integer', nullable: false },
        { name: 'tagId', type: 'integer', nullable: false },
      ],
      indexed: [],
      unique: [['postId', 'tagId']],
      indexes: [
        [
          { field: 'tagId', direction: 'asc' },
          { field: 'postId', direction: 'asc' },
        ],
      ],
      references: [
        { field: 'postId', collection: posts, onDelete: 'cascade' },
        { field: 'tagId', collection: tags, onDelete: 'cascade' },
      ],
    },
  ];
}

interface World {
  readonly home: CaseHome;
  readonly tags: Collection;
  readonly posts: Collection;
  readonly join: CollectionSchema;
  readonly tagsSchema: CollectionSchema;
}

type IdSetCase = (world: World) => Promise<void>;

/** Tags 1 `bug`, 2 `ui`, 3 `docs`. */
async function seedTags(tags: Collection): Promise<void> {
  for (const name of ['bug', 'ui', 'docs']) await tags.create({ name });
}

/** The posts linked to a tag matching `where`: `id IN (SELECT postId FROM join WHERE tagId IN (SELECT id FROM tags WHERE …))`. */
function taggedWith(world: World, where: readonly Condition[]): Condition {
  const tag: Condition = { field: 'tagId', values: [], related: { collection: world.tagsSchema.name, where } };
  return { field: 'id', values: [], related: { collection: world.join.name, key: 'postId', where: [tag] } };
}

const titles = (records: readonly StoredRecord[]) => records.map((record) => record.title);

function idSetGroup(name: string, cases: Record<string, IdSetCase>): StoreCaseGroup {
  const wrapped = Object.fromEntries(
    Object.entries(cases).map(([caseName, test]) => [
      caseName,
      (_: Collection, home: CaseHome) =>
        test({
          home,
          tags: home.collections[0] as Collection,
          posts: home.collections[1] as Collection,
          tagsSchema: home.schemas[0] as CollectionSchema,
          join: home.schemas[2] as CollectionSchema,
        }),
    ]),
  );
  return { name, schemas: (prefix) => idSetSchemas(prefix), cases: wrapped };
}

/** Sets of ids through a join collection, and relation filters through it. */
export const idSetCases = idSetGroup('id sets', {
  'a record holds its set of ids ascending, [] without any, on every read': async ({ tags, posts }) => {
    await seedTags(tags);
    expect(await posts.create({ title: 'Bare' })).toStrictEqual({ id: 1, title: 'Bare', tagIds: [] });
    const made = await posts.create({ title: 'Tagged', tagIds: [3, 1] } as never);
    expect(made).toStrictEqual({ id: 2, title: 'Tagged', tagIds: [1, 3] });
    expect(await posts.find(2, [])).toStrictEqual(made);
    expect(await all(posts)).toStrictEqual([{ id: 1, title: 'Bare', tagIds: [] }, made]);
    expect(await all(posts, { select: ['title'] })).toStrictEqual([
      { id: 1, title: 'Bare' },
      { id: 2, title: 'Tagged' },
    ]);
    expect(await all(posts, { select: ['tagIds'] })).toStrictEqual([
      { id: 1, tagIds: [] },
      { id: 2, tagIds: [1, 3] },
    ]);
  },

  'an update given the set replaces it; one without it keeps it; a scope that fails changes nothing': async ({
    tags,
    posts,
  }) => {
    await seedTags(tags);
    await posts.create({ title: 'Post', tagIds: [1, 2] } as never);
    expect(await posts.update(1, { tagIds: [3, 2] } as never, [])).toStrictEqual({
      id: 1,
      title: 'Post',
      tagIds: [2, 3],
    });
    expect(await posts.update(1, { title: 'Renamed' }, [])).toStrictEqual({ id: 1, title: 'Renamed', tagIds: [2, 3] });
    expect(await posts.update(1, { tagIds: [] } as never, [{ field: 'title', values: ['Other'] }])).toBeUndefined();
    expect(await posts.update(9, { tagIds: [1] } as never, [])).toBeUndefined();
    expect((await posts.find(1, []))?.tagIds).toEqual([2, 3]);
    expect(await posts.update(1, { tagIds: [] } as never, [{ field: 'title', values: ['Renamed'] }])).toStrictEqual({
      id: 1,
      title: 'Renamed',
      tagIds: [],
    });
  },

  'an id naming no record breaks the foreign key, and nothing of the write stays': async ({ tags, posts }) => {
    await seedTags(tags);
    await posts.create({ title: 'Kept', tagIds: [1] } as never);
    expect(await violation(posts.create({ title: 'Never', tagIds: [1, 99] } as never))).toMatchObject({
      kind: 'foreign_key',
      field: 'tagIds',
    });
    expect(await violation(posts.update(1, { title: 'Changed', tagIds: [2, 99] } as never, []))).toMatchObject({
      kind: 'foreign_key',
      field: 'tagIds',
    });
    expect(await all(posts)).toStrictEqual([{ id: 1, title: 'Kept', tagIds: [1] }]);
  },

  'destroying a linked record removes it from every set; destroying the holder removes its links': async (world) => {
    const { tags, posts } = world;
    await seedTags(tags);
    await posts.create({ title: 'One', tagIds: [1, 2] } as never);
    await posts.create({ title: 'Two', tagIds: [2] } as never);
    expect(await tags.destroy(2, [])).toBe(true);
    expect(await all(posts)).toStrictEqual([
      { id: 1, title: 'One', tagIds: [1] },
      { id: 2, title: 'Two', tagIds: [] },
    ]);
    expect(await posts.destroy(1, [])).toBe(true);
    expect(await tags.destroy(1, [])).toBe(true);
    expect(await all(world.home.store.collection(world.join))).toStrictEqual([]);
  },

  'a relation filter through the join keeps the records linked to a match, once each, counted': async (world) => {
    const { tags, posts } = world;
    await seedTags(tags);
    await posts.create({ title: 'Crash', tagIds: [1] } as never);
    await posts.create({ title: 'Both', tagIds: [1, 2] } as never);
    await posts.create({ title: 'Style', tagIds: [2] } as never);
    await posts.create({ title: 'None' });
    const bug = taggedWith(world, [{ field: 'name', values: ['bug'] }]);
    expect(titles(await all(posts, { where: [bug] }))).toEqual(['Crash', 'Both']);
    const either = taggedWith(world, [{ field: 'name', values: ['bug', 'ui'] }]);
    const page = await posts.list({
      where: [either],
      order: [{ field: 'id', direction: 'desc' }],
      limit: 2,
      offset: 0,
      count: true,
    });
    expect(titles(page.records)).toEqual(['Style', 'Both']);
    expect(page.total).toBe(3);
    const prefix = taggedWith(world, [{ field: 'name', values: ['u'], op: 'prefix' }]);
    expect(titles(await all(posts, { where: [prefix] }))).toEqual(['Both', 'Style']);
    const none = taggedWith(world, [{ field: 'name', values: ['docs'] }]);
    expect(await all(posts, { where: [none] })).toEqual([]);
    expect(await posts.find(2, [bug])).toMatchObject({ title: 'Both' });
    expect(await posts.find(3, [bug])).toBeUndefined();
  },

  'a large set comes back whole (no aggregate is cut short)': async ({ tags, posts }) => {
    const ids: number[] = [];
    for (let n = 0; n < 300; n++) ids.push((await tags.create({ name: `t${n}` })).id as number);
    const made = await posts.create({ title: 'Many', tagIds: [...ids].reverse() } as never);
    expect(made.tagIds).toEqual(ids);
    expect((await all(posts))[0]?.tagIds).toEqual(ids);
  },

  'a store transaction that fails undoes the record and its links': async ({ home, tags, posts }) => {
    await seedTags(tags);
    const postsSchema = home.schemas[1] as CollectionSchema;
    await expect(
      home.store.transaction(async (tx) => {
        await tx.collection(postsSchema).create({ title: 'Undone', tagIds: [1, 2] } as never);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await all(posts)).toStrictEqual([]);
    expect(await all(home.store.collection(home.schemas[2] as CollectionSchema))).toStrictEqual([]);
  },
});
