import type { Collection, CollectionSchema, StoredRecord } from '@resourcery/core/store';
import { expect } from 'vitest';
import { createMany } from './create-many-cases.js';
import { type CaseHome, ids, list, orderBy, type StoreCaseGroup } from './fixtures.js';
import { idSetSchemas } from './id-set-cases.js';
import { all, uuid, violation } from './library.js';
import { search } from './search-cases.js';

// Bulk creates (`Collection.createMany`) of records with sets of ids, server values (uuid ids,
// defaults, timestamps), listed values and searchable fields: tags, posts (holding `tagIds`,
// `title` searchable) and their join collection, and notes (uuid ids, `status` listed and
// defaulting to `draft`, `createdAt` and `updatedAt` set by the store, `title` searchable).

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PAST = '2001-02-03T04:05:06.789Z';

function schemas(prefix: string): CollectionSchema[] {
  const [tags, posts, join] = idSetSchemas(prefix);
  const notes: CollectionSchema = {
    name: `${prefix}_notes`,
    attributes: [
      { name: 'id', type: 'uuid', nullable: false },
      { name: 'title', type: 'string', nullable: false, maxLength: 200 },
      { name: 'status', type: 'string', nullable: false, maxLength: 20, default: 'draft', values: ['draft', 'done'] },
      { name: 'createdAt', type: 'date-time', nullable: false, timestamp: 'create' },
      { name: 'updatedAt', type: 'date-time', nullable: false, timestamp: 'update' },
    ],
    indexed: ['createdAt'],
    search: ['title'],
  };
  return [tags, { ...posts, search: ['title'] }, join, notes];
}

interface World {
  readonly home: CaseHome;
  readonly tags: Collection;
  readonly posts: Collection;
  readonly join: Collection;
  readonly notes: Collection;
}

const titles = (records: readonly StoredRecord[]) => records.map((record) => record.title);

/** The `ConstraintViolation` a refused write throws, as the API reads it. */
function refused(kind: string, field: string) {
  return { name: 'ConstraintViolation', kind, field, referencedBy: undefined };
}

/** Tags 1 `bug`, 2 `ui`, 3 `docs`. */
async function seedTags(tags: Collection): Promise<void> {
  for (const name of ['bug', 'ui', 'docs']) await tags.create({ name });
}

function group(name: string, cases: Record<string, (world: World) => Promise<void>>): StoreCaseGroup {
  const wrapped = Object.fromEntries(
    Object.entries(cases).map(([caseName, test]) => [
      caseName,
      (_: Collection, home: CaseHome) => {
        const [tags, posts, join, notes] = home.collections as Collection[];
        return test({ home, tags, posts, join, notes } as World);
      },
    ]),
  );
  return { name, schemas, cases: wrapped, needs: 'createMany' };
}

/** Bulk creates of records holding sets of ids, server values, listed values and searchable fields. */
export const createManySetCases = group('create many: sets, server values, search', {
  'writes the sets of ids of every record, each ascending, [] when not given': async ({ tags, posts, join }) => {
    await seedTags(tags);
    const made = await createMany(posts, [
      { title: 'Crash', tagIds: [3, 1] },
      { title: 'Bare' },
      { title: 'Empty', tagIds: [] },
      { title: 'Style', tagIds: [2] },
    ]);
    expect(made).toStrictEqual([
      { id: 1, title: 'Crash', tagIds: [1, 3] },
      { id: 2, title: 'Bare', tagIds: [] },
      { id: 3, title: 'Empty', tagIds: [] },
      { id: 4, title: 'Style', tagIds: [2] },
    ]);
    expect(await all(posts)).toStrictEqual(made);
    expect(await all(join)).toHaveLength(3);
    expect(await posts.create({ title: 'Next', tagIds: [2] } as never)).toStrictEqual({
      id: 5,
      title: 'Next',
      tagIds: [2],
    });
  },

  'an id of a set naming no record leaves nothing and throws as create does': async ({ tags, posts, join }) => {
    await seedTags(tags);
    const byCreate = await violation(posts.create({ title: 'Never', tagIds: [1, 99] } as never));
    expect(byCreate).toEqual(refused('foreign_key', 'tagIds'));
    const batch = [{ title: 'Fine', tagIds: [1] }, { title: 'Bare' }, { title: 'Never', tagIds: [2, 99] }];
    expect(await violation(createMany(posts, batch))).toEqual(byCreate);
    expect(await all(posts)).toStrictEqual([]);
    expect(await all(join)).toStrictEqual([]);
  },

  'inside a store transaction, a refused bulk create leaves nothing of itself and the transaction goes on': async ({
    home,
    tags,
    posts,
    join,
  }) => {
    await seedTags(tags);
    const postsSchema = home.schemas[1] as CollectionSchema;
    await home.store.transaction(async (tx) => {
      const bound = tx.collection(postsSchema);
      await bound.create({ title: 'Before', tagIds: [1] } as never);
      const batch = [
        { title: 'Fine', tagIds: [1, 2] },
        { title: 'Never', tagIds: [99] },
      ];
      expect(await violation(createMany(bound, batch))).toEqual(refused('foreign_key', 'tagIds'));
      await bound.create({ title: 'After', tagIds: [3] } as never);
    });
    expect((await all(posts)).map((post) => [post.title, post.tagIds])).toEqual([
      ['Before', [1]],
      ['After', [3]],
    ]);
    expect(await all(join)).toHaveLength(2);
  },

  'uuid ids, defaults and timestamps are set as create sets them': async ({ notes }) => {
    const given = uuid('b2');
    const before = new Date().toISOString();
    const made = await createMany(notes, [
      { title: 'One' },
      { title: 'Two', status: 'done', createdAt: PAST },
      { id: given, title: 'Three' },
    ]);
    const after = new Date().toISOString();
    expect(titles(made)).toEqual(['One', 'Two', 'Three']);
    expect(made.map((note) => note.status)).toEqual(['draft', 'done', 'draft']);
    expect(made[0]?.id).toMatch(UUID_V4);
    expect(made[2]?.id).toBe(given);
    expect(new Set(ids(made)).size).toBe(3);
    expect(made[1]?.createdAt).toBe(PAST);
    for (const note of made) {
      const stamp = note.updatedAt as string;
      expect(stamp >= before && stamp <= after, `${stamp} within ${before} and ${after}`).toBe(true);
      if (note.title !== 'Two') expect(note.createdAt).toBe(stamp);
      expect(await notes.find(note.id, [])).toStrictEqual(note);
    }
  },

  'a value outside the listed ones leaves nothing and throws as create does': async ({ notes }) => {
    const byCreate = await violation(notes.create({ title: 'Gone', status: 'gone' }));
    expect(byCreate).toEqual(refused('check', 'status'));
    const batch = [{ title: 'Fine' }, { title: 'Gone', status: 'gone' }];
    expect(await violation(createMany(notes, batch))).toEqual(byCreate);
    expect(await all(notes)).toStrictEqual([]);
  },

  'the searchable fields of every record are found by q': async ({ posts, notes }) => {
    await createMany(posts, [{ title: 'Login crash' }, { title: 'Slow start' }, { title: 'Crash on save' }]);
    expect(titles(await list(posts, orderBy('id'), [search('crash', ['title'])]))).toEqual([
      'Login crash',
      'Crash on save',
    ]);
    await createMany(notes, [{ title: 'Straße names' }, { title: 'Café menu' }, { title: 'STRASSE plan' }]);
    expect(titles(await list(notes, orderBy('title'), [search('stra', ['title'])]))).toEqual([
      'STRASSE plan',
      'Straße names',
    ]);
    expect(titles(await list(notes, orderBy('title'), [search('café', ['title'])]))).toEqual(['Café menu']);
  },
});
